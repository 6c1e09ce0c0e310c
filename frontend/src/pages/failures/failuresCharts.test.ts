import { describe, expect, it } from 'vitest';
import type {
  FailureMatrixResult,
  MapLayer,
  ParetoItem,
  ReliabilityEntry,
  ReliabilityFigures,
} from '../../api/analytics-failures';
import { mapCellArea, mapCellFilter } from '../../api/analytics-failures';
import { testContext } from '../../test/chartContext';
import { paretoChart, reliabilityChart } from './analysisCharts';
import { LEVEL_COLORS, levelColor, typeStyles, worstLevel } from './levels';
import { type CellApi, densestCells, densityChart, errorMapChart, pointTooltip } from './mapCharts';
import { cellLabelLayout, escapeHtml, matrixChart } from './matrixCharts';

type Series = {
  name: string;
  type: string;
  data: unknown[];
  yAxisIndex?: number;
  itemStyle?: { color: string };
};
const seriesOf = (option: unknown) => (option as { series: Series[] }).series;

const levels = (warning: number, fatal: number) => ({ warning, urgent: 0, critical: 0, fatal });
const pareto: ParetoItem[] = [
  {
    errorType: 'obstacle',
    count: 6,
    downtimeSeconds: 0,
    levels: levels(6, 0),
    share: 0.6,
    cumulativeShare: 0.6,
  },
  {
    errorType: 'estop',
    count: 4,
    downtimeSeconds: 900,
    levels: levels(0, 4),
    share: 0.4,
    cumulativeShare: 1,
  },
];

describe('failures analysis transforms', () => {
  it('stacks the Pareto by count per level in the level colours, cumulative share on the right axis', () => {
    const series = seriesOf(paretoChart(pareto, 'count', testContext()).option);
    expect(series.map((s) => s.itemStyle?.color).slice(0, 4)).toEqual([
      LEVEL_COLORS.WARNING,
      LEVEL_COLORS.URGENT,
      LEVEL_COLORS.CRITICAL,
      LEVEL_COLORS.FATAL,
    ]);
    expect(series[0]?.data).toEqual([6, 0]);
    expect(series[3]?.data).toEqual([0, 4]);
    expect(series[4]).toMatchObject({ type: 'line', yAxisIndex: 1, data: [0.6, 1] });
  });

  it('draws the Pareto by downtime as one bar series with the same table', () => {
    // A 3.0 vehicle's CRITICAL episodes stop it too: the table lists every level.
    const estop = { ...(pareto[1] as ParetoItem), levels: { ...levels(0, 3), critical: 1 } };
    const model = paretoChart([estop], 'downtime', testContext());
    expect(seriesOf(model.option).map((s) => s.type)).toEqual(['bar', 'line']);
    expect(model.table.columns.map((column) => column.key)).toEqual([
      'errorType',
      'count',
      'downtime',
      'fatal',
      'critical',
      'urgent',
      'warning',
      'share',
      'cumulativeShare',
    ]);
    expect(model.table.rows).toEqual([
      {
        errorType: 'estop',
        count: 4,
        downtime: 900,
        fatal: 3,
        critical: 1,
        urgent: 0,
        warning: 0,
        share: 0.4,
        cumulativeShare: 1,
      },
    ]);
  });

  it('adds the fleet after the vehicles for MTBF and MTTR', () => {
    const figures = (mtbf: number | null): ReliabilityFigures => ({
      periodSeconds: 36000,
      noDataSeconds: 0,
      plannedSeconds: 36000,
      downtimeSeconds: 600,
      episodes: 5,
      stopEpisodes: 2,
      warnings: 3,
      mtbfSeconds: mtbf,
      mttrSeconds: 300,
      orders: 100,
      errorsPer1000Orders: 50,
      stopErrorsPer1000Orders: 20,
      warningsPer1000Orders: 30,
    });
    const vehicle: ReliabilityEntry = {
      vehicleId: 1,
      name: 'AGV 01',
      current: figures(18000),
      previous: figures(null),
    };
    const fleet: ReliabilityEntry = {
      vehicleId: null,
      name: null,
      current: figures(9000),
      previous: figures(7000),
    };
    const model = reliabilityChart([vehicle], fleet, testContext());
    expect(seriesOf(model.option)[0]?.data).toEqual([18000, 9000]);
    expect(model.table.rows.map((row) => row.name)).toEqual(['AGV 01', 'failures.fleet']);
    expect(model.table.rows[1]).toMatchObject({
      stops: 2,
      warnings: 3,
      stopsPer1000: 20,
      previousMtbf: 7000,
    });
    // Combined mode: the entry already is the fleet; it is not shown twice.
    expect(reliabilityChart([fleet], fleet, testContext()).table.rows).toHaveLength(1);
  });
});

describe('levels and type colours', () => {
  it('gives forty error types forty looks, the colours first', () => {
    const types = Array.from({ length: 40 }, (_, index) => `type${index}`);
    const looks = [...typeStyles(types).values()].map((style) => `${style.color} ${style.symbol}`);
    expect(new Set(looks).size).toBe(40);
    expect(new Set(looks.slice(0, 10).map((look) => look.split(' ')[0])).size).toBe(10);
    expect(looks.slice(0, 10).every((look) => look.endsWith(' circle'))).toBe(true);
  });

  it('colours levels amber, orange, red', () => {
    expect(levelColor('warning')).toBe('#f59f00');
    expect(levelColor('URGENT')).toBe('#f76707');
    expect(levelColor('unknown')).toBe('#868e96');
    expect(worstLevel(levels(3, 1))).toBe('FATAL');
    expect(worstLevel(levels(0, 0))).toBeNull();
  });
});

describe('failure matrix transform', () => {
  const data: FailureMatrixResult = {
    period: {} as FailureMatrixResult['period'],
    errorTypes: [
      {
        errorType: 'obstacle',
        count: 5,
        levels: levels(5, 0),
        firstSeen: '2026-11-20T08:00:00Z',
        lastSeen: '2026-11-21T09:00:00Z',
      },
      {
        errorType: '<b>x</b>',
        count: 1,
        levels: levels(0, 1),
        firstSeen: '2026-11-20T08:00:00Z',
        lastSeen: '2026-11-20T08:00:00Z',
      },
    ],
    vehicles: [
      { vehicleId: 7, name: 'AGV 07', count: 4 },
      { vehicleId: 9, name: 'AGV 09', count: 2 },
    ],
    cells: [
      {
        errorType: 'obstacle',
        vehicleId: 7,
        count: 4,
        worstLevel: 'WARNING',
        firstSeen: '2026-11-20T08:00:00Z',
        lastSeen: '2026-11-21T09:00:00Z',
      },
      {
        errorType: 'obstacle',
        vehicleId: 9,
        count: 1,
        worstLevel: 'WARNING',
        firstSeen: '2026-11-20T08:00:00Z',
        lastSeen: '2026-11-20T08:00:00Z',
      },
      {
        errorType: '<b>x</b>',
        vehicleId: 9,
        count: 1,
        worstLevel: 'FATAL',
        firstSeen: '2026-11-20T08:00:00Z',
        lastSeen: '2026-11-20T08:00:00Z',
      },
    ],
    maxCount: 4,
  };

  it('places cells at (vehicle column, type row) with the colour scale up to the largest cell', () => {
    const model = matrixChart(data, testContext());
    const cells = seriesOf(model.option)[0]?.data as { value: number[] }[];
    expect(cells.map((cell) => cell.value)).toEqual([
      [0, 0, 4],
      [1, 0, 1],
      [1, 1, 1],
    ]);
    expect((model.option as { visualMap: { max: number } }).visualMap.max).toBe(4);
  });

  it('labels a narrow cell smaller, and not where even that runs into a neighbour', () => {
    const label = { width: 14, height: 12 };
    const narrow = { fontSize: 10, hideOverlap: true };
    expect(cellLabelLayout({ labelRect: label, rect: { width: 40, height: 24 } })).toEqual({});
    expect(cellLabelLayout({ labelRect: label, rect: { width: 16, height: 24 } })).toEqual({});
    expect(cellLabelLayout({ labelRect: label, rect: { width: 15, height: 24 } })).toEqual(narrow);
    expect(cellLabelLayout({ labelRect: label, rect: { width: 40, height: 10 } })).toEqual(narrow);
    const series = seriesOf(matrixChart(data, testContext()).option)[0] as {
      labelLayout?: unknown;
    };
    expect(series.labelLayout).toBe(cellLabelLayout);
  });

  it('tabulates every type with its level, first and last seen and a column per vehicle (zeros too)', () => {
    const model = matrixChart(data, testContext('de'));
    expect(model.table.columns.map((column) => column.key)).toEqual([
      'errorType',
      'level',
      'count',
      'firstSeen',
      'lastSeen',
      'vehicle-7',
      'vehicle-9',
    ]);
    expect(model.table.rows[1]).toMatchObject({
      errorType: '<b>x</b>',
      level: 'failures.level.FATAL',
      'vehicle-7': 0,
      'vehicle-9': 1,
    });
    // The instant itself; the table shows it in the site's zone and the CSV exports it there.
    expect(model.table.rows[0]?.firstSeen).toBe('2026-11-20T08:00:00Z');
    expect(model.table.columns.find((column) => column.key === 'firstSeen')?.format).toBe(
      'dateTime',
    );
  });

  it('never renders vehicle-supplied text as HTML', () => {
    expect(escapeHtml('<img onerror="x">&')).toBe('&lt;img onerror=&quot;x&quot;&gt;&amp;');
  });
});

describe('failure map transforms', () => {
  const layer: MapLayer = {
    mapId: 'hall-1',
    bounds: { minX: 5, minY: 5, maxX: 20, maxY: 10 },
    track: {
      originX: 5,
      originY: 5,
      cellSize: 1,
      columns: 15,
      rows: 5,
      cells: [
        [0, 0, 3],
        [2, 1, 1],
      ],
    },
    density: {
      originX: 5,
      originY: 5,
      cellSize: 3,
      columns: 5,
      rows: 2,
      cells: [
        [0, 0, 1],
        [3, 1, 4],
      ],
    },
    points: [
      {
        vehicleId: 1,
        vehicleName: 'AGV 01',
        errorType: 'obstacle',
        level: 'WARNING',
        description: 'Obstacle <near>',
        start: '2026-11-21T10:00:00Z',
        x: 6,
        y: 6,
      },
      {
        vehicleId: 2,
        vehicleName: 'AGV 02',
        errorType: 'estop',
        level: 'FATAL',
        description: 'E-stop',
        start: '2026-11-21T11:00:00Z',
        x: 9,
        y: 7,
      },
      {
        vehicleId: 1,
        vehicleName: 'AGV 01',
        errorType: 'obstacle',
        level: 'WARNING',
        description: 'Obstacle',
        start: '2026-11-21T12:00:00Z',
        x: 10,
        y: 7,
      },
    ],
    pointsTotal: 3,
  };

  it('draws the track cell centres and a point series per error type, most frequent first', () => {
    const series = seriesOf(errorMapChart(layer, testContext()).option);
    expect(series[0]?.data).toEqual([
      [5.5, 5.5],
      [7.5, 6.5],
    ]);
    const looks = typeStyles(['obstacle', 'estop']);
    expect(series.slice(1).map((s) => [s.name, s.data.length, s.itemStyle?.color])).toEqual([
      ['obstacle', 2, looks.get('obstacle')?.color],
      ['estop', 1, looks.get('estop')?.color],
    ]);
    expect(looks.get('obstacle')?.color).not.toBe(looks.get('estop')?.color);
  });

  it('asks for both maps to be drawn to scale, on the same metre axes', () => {
    // x 4..21 m (a track cell's margin) on steps of 5: 0..25 m; y 4..11 m on steps of 2: 4..12 m.
    const map = errorMapChart(layer, testContext());
    expect(map.scale?.aspect).toBe(25 / 8);
    expect(map.option).toMatchObject({ grid: map.scale?.margins });
    const density = densityChart(layer, testContext());
    expect(density.scale).toEqual(map.scale);
    type Axes = { xAxis: { min: number; max: number }; yAxis: { min: number; max: number } };
    const axes = (option: unknown) => {
      const { xAxis, yAxis } = option as Axes;
      return [xAxis.min, xAxis.max, yAxis.min, yAxis.max];
    };
    expect(axes(density.option)).toEqual([0, 25, 4, 12]);
    expect(axes(map.option)).toEqual(axes(density.option));
  });

  it('shows time, vehicle and description in the tooltip, escaped', () => {
    const text = pointTooltip(layer.points[0] as MapLayer['points'][number], testContext('de'));
    expect(text).toContain('AGV 01');
    expect(text).toContain('Obstacle &lt;near&gt;');
    expect(text).toContain('21.11.2026');
    expect(text).toContain('failures.level.WARNING');
  });

  it('draws the density cells as rectangles in metres over the track, densest first in the table', () => {
    const model = densityChart(layer, testContext());
    type CellSeries = Series & {
      silent?: boolean;
      renderItem: (params: unknown, api: CellApi) => { shape: Record<string, number> };
    };
    const option = model.option as {
      series: CellSeries[];
      visualMap: { max: number; seriesIndex: number; dimension: number };
      tooltip: { formatter: (params: { value?: number[] }) => string };
    };
    const [track, cells] = option.series;
    // The track, as on the error map, under the cells; it takes no clicks (a cell does).
    expect(track).toMatchObject({ type: 'scatter', silent: true });
    expect(track?.data).toEqual(seriesOf(errorMapChart(layer, testContext()).option)[0]?.data);
    // A cell's item is the drill-down's [column, row, count], then its centre in metres on
    // the axes; its count picks the colour.
    expect(cells?.type).toBe('custom');
    expect(cells?.data).toEqual([
      [0, 0, 1, 6.5, 6.5],
      [3, 1, 4, 15.5, 9.5],
    ]);
    expect(cells).toMatchObject({ encode: { x: 3, y: 4, tooltip: 2 } });
    expect(option.visualMap).toMatchObject({ max: 4, seriesIndex: 1, dimension: 2 });
    // Cell (3, 1) of 3 m cells from (5, 5) covers x 14..17 m, y 8..11 m: on a plot of 10 px
    // a metre with y up from 200 px, the rectangle from (140, 90) 30 px wide and high.
    const item = [3, 1, 4];
    const api: CellApi = {
      value: (dimension) => item[dimension] ?? Number.NaN,
      coord: ([x, y]) => [x * 10, 200 - y * 10],
      style: () => ({ fill: '#e03131' }),
    };
    expect(cells?.renderItem({}, api).shape).toEqual({ x: 140, y: 90, width: 30, height: 30 });
    // The tooltip names the cell by its centre (15.5, 9.5 m: whole metres for 3 m cells).
    expect(option.tooltip.formatter({ value: item })).toBe('x 16 m, y 10 m<br/>failures.count: 4');
    expect(model.table.rows).toEqual([
      { x: 15.5, y: 9.5, count: 4 },
      { x: 6.5, y: 6.5, count: 1 },
    ]);
    // A table row leads where its cell does: the rows in the order densestCells gives.
    expect(densestCells(layer).map(([column, row]) => [column, row])).toEqual([
      [3, 1],
      [0, 0],
    ]);
  });

  it("writes a density cell as the API's filter and reads its area back", () => {
    const filter = mapCellFilter('hall-1', layer.density, [3, 1]);
    expect(filter).toEqual({ mapId: 'hall-1', cell: '3,1', grid: '5,5,3,5,2' });
    expect(mapCellArea(filter)).toEqual({ x0: 14, x1: 17, y0: 8, y1: 11 });
    expect(mapCellArea({ ...filter, grid: 'a,b' })).toBeNull();
  });
});
