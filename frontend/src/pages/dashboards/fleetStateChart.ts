import type { ChartContext, ChartModel } from '../../components/charts';
import { barCartesian, STATE_COLORS } from '../../components/charts';
import { categoryAxis, countAxis, numberFormatter } from '../../components/charts/chartParts';
import { type Board, orderedCounts } from './statusboardModel';

/**
 * The fleet now: vehicles per state as bars, worst state first (the statusboard's order),
 * each in its state's colour; the table lists every state, also those without a vehicle.
 */
export function fleetStateChart(board: Board, ctx: ChartContext): ChartModel {
  const counts = orderedCounts(board);
  const names = counts.map(({ state }) => ctx.t(`productivity.states.${state}`));
  const frame = barCartesian(ctx.theme, numberFormatter(ctx));
  return {
    option: {
      ...frame,
      // One series coloured by state: the axis names the states, so no legend (nor its room).
      legend: { show: false },
      grid: { ...frame.grid, top: 8 },
      xAxis: countAxis(ctx),
      yAxis: { ...categoryAxis(ctx, names), inverse: true },
      series: [
        {
          name: ctx.t('dashboard.vehicles'),
          type: 'bar',
          barMaxWidth: 28,
          data: counts.map(({ state, count }) => ({
            value: count,
            itemStyle: { color: STATE_COLORS[state] },
          })),
        },
      ],
    },
    table: {
      columns: [
        { key: 'state', label: ctx.t('dashboard.state'), format: 'text' },
        { key: 'vehicles', label: ctx.t('dashboard.vehicles'), format: 'integer' },
      ],
      rows: counts.map(({ state, count }, index) => ({
        state: names[index] ?? state,
        vehicles: count,
      })),
    },
  };
}
