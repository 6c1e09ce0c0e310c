import { describe, expect, it } from 'vitest';
import { STATE_COLORS } from '../../components/charts';
import { testContext } from '../../test/chartContext';
import { fleetStateChart } from './fleetStateChart';
import type { Board } from './statusboardModel';

const board: Board = {
  stateOrder: ['error', 'offline', 'manual', 'charging', 'idle', 'working'],
  // The server leaves out states without a vehicle.
  counts: { working: 5, charging: 2, error: 1 },
  tiles: [],
  clockOffsetMs: 0,
};

interface BarItem {
  value: number;
  itemStyle: { color: string };
}

describe('fleetStateChart', () => {
  it('draws the vehicles per state, worst first, each in its colour, none missing', () => {
    const model = fleetStateChart(board, testContext('en'));
    const option = model.option as {
      legend: { show: boolean };
      yAxis: { data: string[] };
      series: Array<{ data: BarItem[] }>;
    };
    // The test context's `t` returns the key: the names are the statusboard's state names.
    expect(option.yAxis.data).toEqual(
      board.stateOrder.map((state) => `productivity.states.${state}`),
    );
    expect(option.legend.show).toBe(false);
    const bars = option.series[0]?.data ?? [];
    expect(bars.map((bar) => bar.value)).toEqual([1, 0, 0, 2, 0, 5]);
    expect(bars[0]?.itemStyle.color).toBe(STATE_COLORS.error);
    expect(bars[5]?.itemStyle.color).toBe(STATE_COLORS.working);
    expect(model.table.columns.map((column) => [column.label, column.format])).toEqual([
      ['dashboard.state', 'text'],
      ['dashboard.vehicles', 'integer'],
    ]);
    expect(model.table.rows.map((row) => row.vehicles)).toEqual([1, 0, 0, 2, 0, 5]);
    expect(model.table.rows[3]).toEqual({ state: 'productivity.states.charging', vehicles: 2 });
  });
});
