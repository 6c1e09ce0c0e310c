import { describe, expect, it } from 'vitest';
import {
  actionTarget,
  batteryTileTarget,
  batteryVehicleTarget,
  bucketTarget,
  chargeLineTarget,
  chargeRowTarget,
  chargeSessionsTarget,
  cycleBarTarget,
  cycleBucketOf,
  DRILL_PAGES,
  type DrillTarget,
  dashboardTileTarget,
  densityCellTarget,
  depthBarTarget,
  drillLocation,
  drillTopicOf,
  errorFilterFromUrl,
  heatmapCellOf,
  heatmapCellParam,
  heatmapCellTarget,
  heatmapItem,
  heatmapTarget,
  historyOrdersTarget,
  historyPointTarget,
  mapPointTarget,
  matrixCellTarget,
  pageTileTarget,
  paretoTarget,
  sessionListOf,
  vehicleErrorsTarget,
  vehicleOrdersTarget,
  vehicleOutcomeTarget,
  vehicleStateTarget,
  vehicleStopsTarget,
  withErrorFilter,
  withoutDrillParams,
  workflowTarget,
} from './drillDown';
import { decodeView, type ViewState } from './viewUrl';

const VIEW: ViewState = {
  relativeRange: null,
  mode: 'week',
  from: '2026-11-16',
  to: '2026-11-22',
  vehicles: [3, 5],
  shift: 'early',
  combined: false,
};

function must(target: DrillTarget | null): DrillTarget {
  if (!target) {
    throw new Error('no drill-down target');
  }
  return target;
}

const PARETO = [{ errorType: 'laserScannerBlocked' }, { errorType: 'noRouteFound' }];
const ENTRIES = [
  { vehicleId: 3, name: 'AGV 3' },
  { vehicleId: 5, name: 'AGV 5' },
];

describe('drill-down targets', () => {
  it("leads a Pareto bar's level segment to the error history of its type at that level", () => {
    // By count the bars stack WARNING, URGENT, CRITICAL, FATAL: the third segment is CRITICAL.
    const target = paretoTarget(PARETO, { seriesIndex: 2, dataIndex: 1, name: 'noRouteFound' });
    expect(target).toEqual({
      path: '/failures/history',
      params: { errorType: 'noRouteFound', level: ['CRITICAL'] },
    });
    const { pathname, search } = drillLocation(must(target), VIEW);
    expect(pathname).toBe('/failures/history');
    // The period, vehicles, shift and combined flag travel along; type and level filter.
    expect(search).toBe(
      '?errorType=noRouteFound&level=CRITICAL&mode=week&from=2026-11-16&to=2026-11-22&vehicles=3,5&shift=early&combined=false',
    );
    expect(errorFilterFromUrl(search)).toEqual({
      errorType: 'noRouteFound',
      levels: ['CRITICAL'],
      cell: null,
    });
    // The table row (no segment): every level; the cumulative line: every level too.
    expect(paretoTarget(PARETO, { dataIndex: 1 })?.params).toEqual({ errorType: 'noRouteFound' });
    expect(paretoTarget(PARETO, { seriesIndex: 4, dataIndex: 1 })?.params).toEqual({
      errorType: 'noRouteFound',
    });
    // By downtime: the stop-level episodes whose time the bar sums.
    expect(paretoTarget(PARETO, { seriesIndex: 0, dataIndex: 0 }, 'downtime')?.params).toEqual({
      errorType: 'laserScannerBlocked',
      level: ['CRITICAL', 'FATAL'],
    });
  });

  it('ignores a click outside the data (no index, an index past the end)', () => {
    expect(paretoTarget(PARETO, {})).toBeNull();
    expect(paretoTarget(PARETO, { dataIndex: 2 })).toBeNull();
    expect(paretoTarget(PARETO, { dataIndex: -1 })).toBeNull();
  });

  it('leads a workflow bar to its orders on processes/workflows', () => {
    const target = workflowTarget([{ workflow: 'inbound' }, { workflow: 'outbound' }], {
      dataIndex: 0,
    });
    expect(target).toEqual({ path: '/processes/workflows', params: { workflow: 'inbound' } });
    const params = new URLSearchParams(drillLocation(must(target), VIEW).search);
    expect(params.get('workflow')).toBe('inbound');
    expect(params.get('vehicles')).toBe('3,5');
  });

  it('keeps the heatmap cell or cycle-time bucket a workflows page is narrowed to', () => {
    const rows = [{ workflow: 'inbound' }];
    const cell = { weekday: 2, hour: 14 };
    const inCell = workflowTarget(rows, { dataIndex: 0 }, { cell });
    expect(inCell?.params).toEqual({ workflow: 'inbound', heatmapCell: heatmapCellParam(cell) });
    const inBucket = workflowTarget(rows, { dataIndex: 0 }, { cycleBucket: 3 });
    expect(inBucket?.params).toEqual({
      workflow: 'inbound',
      outcome: 'finished',
      cycleBucket: '3',
    });
    // A workflow's histogram loaded for a cell: its bars keep the cell.
    const bar = cycleBarTarget(
      { seriesIndex: 0, dataIndex: 0 },
      { buckets: [4], workflow: 'inbound', cell },
    );
    expect(bar?.params).toEqual({
      workflow: 'inbound',
      outcome: 'finished',
      cycleBucket: '4',
      heatmapCell: heatmapCellParam(cell),
    });
  });

  it('leads an action bar to the failed actions of its type', () => {
    const target = actionTarget([{ actionType: 'pick' }, { actionType: 'drop' }], {
      dataIndex: 1,
    });
    expect(target).toEqual({ path: '/processes/actions', params: { actionType: 'drop' } });
  });

  it("leads a vehicle's time-in-state segment to what filled that time", () => {
    // VEHICLE_STATES order: error, offline, manual, charging, idle, working.
    expect(vehicleStateTarget(ENTRIES, { seriesIndex: 5, dataIndex: 1 })).toEqual({
      path: '/processes/workflows',
      view: { vehicles: [5] },
      params: {},
    });
    expect(vehicleStateTarget(ENTRIES, { seriesIndex: 3, dataIndex: 0 })).toEqual({
      path: '/battery',
      view: { vehicles: [3] },
      params: { sessions: 'all' },
    });
    expect(vehicleStateTarget(ENTRIES, { seriesIndex: 0, dataIndex: 1 })).toEqual({
      path: '/failures/history',
      view: { vehicles: [5] },
      params: { level: ['CRITICAL', 'FATAL'] },
    });
    // Idle, offline and manual time have no list: the vehicle's errors (and from there its
    // orders); so has the whole bar (its table row).
    for (const element of [
      { seriesIndex: 4, dataIndex: 1 },
      { seriesIndex: 1, dataIndex: 1 },
      { dataIndex: 1 },
    ]) {
      expect(vehicleStateTarget(ENTRIES, element)).toEqual({
        path: '/failures/history',
        view: { vehicles: [5] },
        params: {},
      });
    }
    // The combined bar: the whole selection's.
    expect(vehicleStateTarget([{ vehicleId: null }], { seriesIndex: 3, dataIndex: 0 })).toEqual({
      path: '/battery',
      params: { sessions: 'all' },
    });
  });

  it("leads a vehicle's error bar to its errors and its distance bar to its orders", () => {
    const errors = vehicleErrorsTarget(ENTRIES, { seriesIndex: 4, dataIndex: 1 });
    const errorsAt = drillLocation(must(errors), VIEW);
    expect(errorsAt.pathname).toBe('/failures/history');
    // Only that vehicle; the rest of the view unchanged.
    expect(decodeView(errorsAt.search)).toEqual({ ...VIEW, vehicles: [5] });
    const orders = vehicleOrdersTarget(ENTRIES, { dataIndex: 0 });
    const ordersAt = drillLocation(must(orders), VIEW);
    expect(ordersAt.pathname).toBe('/processes/workflows');
    expect(decodeView(ordersAt.search).vehicles).toEqual([3]);
  });

  it("leads a vehicle's outcome segment to its orders of that outcome", () => {
    const failed = drillLocation(
      must(vehicleOutcomeTarget(ENTRIES, { seriesIndex: 1, dataIndex: 1 })),
      VIEW,
    );
    expect(failed.pathname).toBe('/processes/workflows');
    expect(new URLSearchParams(failed.search).get('outcome')).toBe('failed');
    expect(decodeView(failed.search).vehicles).toEqual([5]);
    expect(vehicleOutcomeTarget(ENTRIES, { seriesIndex: 2, dataIndex: 0 })?.params).toEqual({
      outcome: 'cancelled',
    });
    // Its table row: all of the vehicle's orders.
    expect(vehicleOutcomeTarget(ENTRIES, { dataIndex: 0 })?.params).toEqual({});
  });

  it("leads a vehicle's MTBF or MTTR bar to its stop-level errors, which both count", () => {
    expect(vehicleStopsTarget(ENTRIES, { seriesIndex: 1, dataIndex: 1 })).toEqual({
      path: '/failures/history',
      view: { vehicles: [5] },
      params: { level: ['CRITICAL', 'FATAL'] },
    });
  });

  it("leads from a vehicle's error history on to its orders in the same period", () => {
    // The bar opens the history of vehicle 5 filtered to one error type; its orders link
    // keeps the vehicle, period and shift but leaves the history's own filters behind.
    const errorsAt = drillLocation(must(vehicleErrorsTarget(ENTRIES, { dataIndex: 1 })), VIEW);
    const historyView = { ...VIEW, ...decodeView(errorsAt.search) };
    const filter = { errorType: 'bumperHit', levels: ['FATAL'] } as const;
    const search = withErrorFilter(errorsAt.search, filter);
    expect(errorFilterFromUrl(search)).toEqual({ ...filter, cell: null });
    const ordersAt = drillLocation(historyOrdersTarget(), historyView);
    expect(ordersAt).toEqual({
      pathname: '/processes/workflows',
      search: '?mode=week&from=2026-11-16&to=2026-11-22&vehicles=5&shift=early&combined=false',
    });
    // A relative period stays relative on the way.
    const relative = drillLocation(historyOrdersTarget(), {
      ...historyView,
      relativeRange: 'thisWeekSoFar',
    });
    expect(decodeView(relative.search)).toMatchObject({
      relativeRange: 'thisWeekSoFar',
      vehicles: [5],
    });
  });

  it('leads the combined bar to the errors of the whole selection', () => {
    const target = vehicleErrorsTarget([{ vehicleId: null }], { dataIndex: 0 });
    expect(decodeView(drillLocation(must(target), VIEW).search).vehicles).toEqual([3, 5]);
  });

  it('keeps a relative range relative, and a shift range names its own shift', () => {
    const target = paretoTarget(PARETO, { dataIndex: 0 });
    const relative = drillLocation(must(target), { ...VIEW, relativeRange: 'yesterday' });
    expect(new URLSearchParams(relative.search).get('range')).toBe('yesterday');
    expect(new URLSearchParams(relative.search).has('from')).toBe(false);
    const shift = drillLocation(must(target), { ...VIEW, relativeRange: 'previousShift' });
    expect(new URLSearchParams(shift.search).has('shift')).toBe(false);
  });

  it('leads a failure-matrix cell to the episodes of that type on that vehicle', () => {
    const target = matrixCellTarget({
      value: [1, 0, 4],
      data: { value: [1, 0, 4], cell: { errorType: 'bumperHit', vehicleId: 5, count: 4 } },
    });
    const at = drillLocation(must(target), VIEW);
    expect(at.pathname).toBe('/failures/history');
    expect(errorFilterFromUrl(at.search).errorType).toBe('bumperHit');
    expect(decodeView(at.search).vehicles).toEqual([5]);
    expect(matrixCellTarget({ value: [1, 0, 4] })).toBeNull();
  });

  it('leads an error point on the map (or its row) to its type on its vehicle', () => {
    const points = [
      { errorType: 'bumperHit', vehicleId: 3 },
      { errorType: 'noRouteFound', vehicleId: 5 },
    ];
    const expected = {
      path: '/failures/history',
      view: { vehicles: [5] },
      params: { errorType: 'noRouteFound' },
    };
    expect(
      mapPointTarget(points, {
        seriesIndex: 2,
        dataIndex: 0,
        data: { value: [1, 2], point: points[1] },
      }),
    ).toEqual(expected);
    expect(mapPointTarget(points, { dataIndex: 1 })).toEqual(expected);
    // Under the page's level filter, the episodes the map shows.
    expect(mapPointTarget(points, { dataIndex: 1 }, ['FATAL'])?.params).toEqual({
      errorType: 'noRouteFound',
      level: ['FATAL'],
    });
    // The grey track under the points leads nowhere.
    expect(mapPointTarget(points, { seriesIndex: 0, dataIndex: 1, data: [1, 2] })).toBeNull();
  });

  it('leads a density cell to the episodes it counts, under the page filter', () => {
    const layer = {
      mapId: 'hall-1',
      density: { originX: -2.5, originY: 0, cellSize: 1.25, columns: 40, rows: 16, cells: [] },
    };
    const item = heatmapItem({ seriesIndex: 0, dataIndex: 3, data: [4, 7, 12] });
    const target = must(densityCellTarget(layer, { errorType: null, levels: ['FATAL'] }, item));
    expect(target).toEqual({
      path: '/failures/history',
      params: { level: ['FATAL'], mapId: 'hall-1', cell: '4,7', grid: '-2.5,0,1.25,40,16' },
    });
    const { search } = drillLocation(target, VIEW);
    expect(errorFilterFromUrl(search)).toEqual({
      errorType: null,
      levels: ['FATAL'],
      cell: { mapId: 'hall-1', cell: '4,7', grid: '-2.5,0,1.25,40,16' },
    });
    // Anything but a cell leads nowhere.
    expect(densityCellTarget(layer, { errorType: null, levels: [] }, heatmapItem({}))).toBeNull();
    expect(heatmapItem({ value: [1, 'x', 3] })).toBeNull();
  });

  it('leads a heatmap cell (or weekday row) to the finished orders ended there', () => {
    // An item is [hour, weekday, count]; the period travels along unchanged.
    const cell = heatmapCellTarget({ value: [14, 2, 7] });
    expect(cell).toEqual({
      path: '/processes/workflows',
      params: { outcome: 'finished', heatmapCell: '2,14' },
    });
    expect(drillLocation(cell ?? { path: '/processes/workflows' }, VIEW).search).toContain(
      'heatmapCell=2,14',
    );
    expect(heatmapTarget(6)?.params).toEqual({ outcome: 'finished', heatmapCell: '6' });
    expect(heatmapTarget(7)).toBeNull();
    expect(heatmapTarget(0, 24)).toBeNull();
    expect(heatmapCellTarget({ value: [1, 'x', 3] })).toBeNull();
    expect(cycleBucketOf('3')).toBe(3);
    for (const text of [null, '', '-1', '1.5', 'x']) {
      expect(cycleBucketOf(text)).toBeNull();
    }
    // The address read back: a cell, a row, and anything else as no filter.
    expect(heatmapCellOf('2,14')).toEqual({ weekday: 2, hour: 14 });
    expect(heatmapCellOf('6')).toEqual({ weekday: 6, hour: null });
    for (const text of [null, '', '7', '1,24', '1,2,3', '-1', '1,x', '1.5']) {
      expect(heatmapCellOf(text)).toBeNull();
    }
  });

  it('leads a history point to the analysis of that day, week or month', () => {
    const history = {
      granularity: 'week' as const,
      // A period from Wednesday: its first week is cut short.
      buckets: [
        { from: '2026-11-04', to: '2026-11-08' },
        { from: '2026-11-09', to: '2026-11-15' },
      ],
      previousBuckets: [
        { from: '2026-10-21', to: '2026-10-25' },
        { from: '2026-10-26', to: '2026-11-01' },
      ],
    };
    expect(historyPointTarget(history, { seriesIndex: 2, dataIndex: 1 })).toEqual({
      path: '/productivity/analysis',
      view: { relativeRange: null, mode: 'week', from: '2026-11-09', to: '2026-11-15' },
    });
    expect(historyPointTarget(history, { seriesIndex: 0, dataIndex: 0 })?.view).toEqual({
      relativeRange: null,
      mode: 'custom',
      from: '2026-11-04',
      to: '2026-11-08',
    });
    // The dashed line of the previous period: its own bucket.
    expect(historyPointTarget(history, { seriesIndex: 1, dataIndex: 1 })?.view?.from).toBe(
      '2026-10-26',
    );
    // Lines per vehicle: a point of the second vehicle's line (or its dashed or running
    // segment, which follow the pairs) narrows to that vehicle; the combined line does not.
    const perVehicle = { ...history, series: [{ vehicleId: 3 }, { vehicleId: 5 }] };
    for (const seriesIndex of [2, 3, 6]) {
      expect(historyPointTarget(perVehicle, { seriesIndex, dataIndex: 1 })?.view?.vehicles).toEqual(
        [5],
      );
    }
    const combined = { ...history, series: [{ vehicleId: null }] };
    expect(historyPointTarget(combined, { seriesIndex: 0, dataIndex: 1 })?.view).not.toHaveProperty(
      'vehicles',
    );
    expect(
      bucketTarget(
        [{ from: '2026-02-01', to: '2026-02-28' }],
        { dataIndex: 0 },
        { granularity: 'month', path: DRILL_PAGES.battery },
      ),
    ).toEqual({
      path: '/battery',
      view: { relativeRange: null, mode: 'month', from: '2026-02-01', to: '2026-02-28' },
    });
  });

  it("leads a vehicle's battery bar, charge line and charge row to its battery page", () => {
    const one = { path: '/battery', view: { vehicles: [5] } };
    expect(batteryVehicleTarget(ENTRIES, { dataIndex: 1 })).toEqual(one);
    // The combined bar: the vehicles apart.
    expect(batteryVehicleTarget([{ vehicleId: null }], { dataIndex: 0 })).toEqual({
      path: '/battery',
      view: { combined: false },
    });
    const series = [
      {
        vehicleId: 3,
        points: [
          [1, 80],
          [2, 79],
        ],
      },
      { vehicleId: 5, points: [[1, 60]] },
    ];
    expect(chargeLineTarget(series, { seriesIndex: 1, dataIndex: 0 })).toEqual(one);
    expect(chargeLineTarget(series, { dataIndex: 0 })).toBeNull();
    expect(chargeRowTarget(series, 1)?.view).toEqual({ vehicles: [3] });
    expect(chargeRowTarget(series, 2)).toEqual(one);
    expect(chargeRowTarget(series, 3)).toBeNull();
    // The combined line (no vehicle) leads to the page's lines per vehicle.
    const perVehicle = { path: '/battery', view: { combined: false } };
    expect(chargeLineTarget([{ vehicleId: null }], { seriesIndex: 0, dataIndex: 3 })).toEqual(
      perVehicle,
    );
    expect(chargeRowTarget([{ vehicleId: null, points: [[1, 60]] }], 0)).toEqual(perVehicle);
  });

  it('leads the session tiles and a depth bar to the charge sessions behind them', () => {
    const all = { path: '/battery', params: { sessions: 'all' } };
    for (const tile of ['sessions', 'mean-session', 'mean-added', 'mean-depth', 'efc', 'energy']) {
      expect(batteryTileTarget(tile, true)).toEqual(all);
      expect(batteryTileTarget(tile, false)).toEqual(all);
    }
    expect(pageTileTarget('chargingShare')).toEqual(all);
    expect(depthBarTarget({ seriesIndex: 0, dataIndex: 2 })).toEqual(chargeSessionsTarget(20));
    // The previous period's bar counts sessions the list does not hold.
    expect(depthBarTarget({ seriesIndex: 1, dataIndex: 2 })).toBeNull();
    expect(depthBarTarget({ dataIndex: 9 })?.params).toEqual({ sessions: '90' });
    expect(depthBarTarget({ dataIndex: 10 })).toBeNull();
    expect(depthBarTarget({})).toBeNull();
    const { search } = drillLocation(chargeSessionsTarget(20), VIEW);
    expect(new URLSearchParams(search).get('sessions')).toBe('20');
    expect(withoutDrillParams(search)).not.toContain('sessions');
    // The address back to the list it asks for; anything else keeps the list closed.
    expect(sessionListOf('all')).toEqual({ depth: null });
    expect(sessionListOf('0')).toEqual({ depth: 0 });
    expect(sessionListOf('90')).toEqual({ depth: 90 });
    for (const value of [null, '', '15', '100', '-10', '2e1', 'depth']) {
      expect(sessionListOf(value)).toBeNull();
    }
  });

  it('leads the charge, health and low-charge tiles to the table of the figures per vehicle', () => {
    for (const tile of ['mean-charge', 'min-charge', 'health', 'health-slope', 'below-low']) {
      const params = { table: 'battery-vehicles' };
      // Combined, the vehicles apart first; per vehicle, the same view with the table open.
      expect(batteryTileTarget(tile, true)).toEqual({
        path: '/battery',
        view: { combined: false },
        params,
      });
      expect(batteryTileTarget(tile, false)).toEqual({ path: '/battery', params });
      const { search } = drillLocation(batteryTileTarget(tile, true), VIEW);
      expect(new URLSearchParams(search).get('table')).toBe('battery-vehicles');
      expect(new URLSearchParams(search).get('combined')).toBe('false');
      expect(withoutDrillParams(search)).not.toContain('table');
    }
  });

  it('leads the finished-orders tiles to the finished orders of each workflow', () => {
    // The bars shown are the server's buckets 2 to 5: a bar leads to the orders of its bucket.
    const buckets = [2, 3, 4, 5];
    expect(cycleBarTarget({ seriesIndex: 0, dataIndex: 0 }, { buckets })).toEqual({
      path: '/processes/workflows',
      params: { outcome: 'finished', cycleBucket: '2' },
    });
    expect(cycleBarTarget({}, { buckets })).toBeNull();
    // The previous period's bar counts orders the list of the period does not hold.
    expect(cycleBarTarget({ seriesIndex: 1, dataIndex: 0 }, { buckets })).toBeNull();
    // A table row (no series) and a workflow's own histogram.
    expect(cycleBarTarget({ dataIndex: 3 }, { buckets, workflow: 'TRANSPORT_A' })?.params).toEqual({
      workflow: 'TRANSPORT_A',
      outcome: 'finished',
      cycleBucket: '5',
    });
    expect(cycleBarTarget({ dataIndex: 4 }, { buckets })).toBeNull();
    for (const target of [
      dashboardTileTarget('orders'),
      pageTileTarget('orders'),
      pageTileTarget('throughput'),
    ]) {
      expect(target).toEqual({ path: '/processes/workflows', params: { outcome: 'finished' } });
    }
    expect(pageTileTarget('success-rate')?.params).toEqual({});
    const { search } = drillLocation(must(pageTileTarget('orders')), VIEW);
    expect(new URLSearchParams(search).get('outcome')).toBe('finished');
    // Not a filter of the next page the menu opens.
    expect(withoutDrillParams(search)).not.toContain('outcome');
  });

  it('leads every productivity tile somewhere behind its figure', () => {
    const paths = Object.fromEntries(
      ['availability', 'utilization', 'idleShare', 'chargingShare', 'loads', 'distance'].map(
        (tile) => [tile, pageTileTarget(tile)?.path],
      ),
    );
    expect(paths).toEqual({
      availability: '/failures/analysis',
      utilization: '/productivity/history',
      idleShare: '/productivity/history',
      chargingShare: '/battery',
      loads: '/processes/actions',
      distance: '/productivity/history',
    });
    expect(drillTopicOf(must(pageTileTarget('utilization')))).toBe('productivityHistory');
  });

  it('leads every dashboard tile to the page it summarises', () => {
    const pages = Object.fromEntries(
      [
        'availability',
        'utilization',
        'throughput',
        'orders',
        'cycleTimeP50',
        'mtbf',
        'mttr',
        'errors',
        'meanCharge',
      ].map((tile) => [tile, dashboardTileTarget(tile)?.path]),
    );
    expect(pages).toEqual({
      availability: '/productivity/analysis',
      utilization: '/productivity/analysis',
      throughput: '/productivity/analysis',
      orders: '/processes/workflows',
      cycleTimeP50: '/processes/analysis',
      mtbf: '/failures/analysis',
      mttr: '/failures/analysis',
      errors: '/failures/history',
      meanCharge: '/battery',
    });
    expect(drillTopicOf(must(dashboardTileTarget('meanCharge')))).toBe('battery');
    expect(drillTopicOf(must(dashboardTileTarget('errors')))).toBe('failuresHistory');
    expect(dashboardTileTarget('unknown')).toBeNull();
  });

  it("leads the failures page's level tiles to the history of those levels", () => {
    // Fatal errors are the stop levels (3.0's CRITICAL too): as many rows as the tile counts.
    const fatal = must(pageTileTarget('fatal'));
    expect(fatal).toEqual({ path: '/failures/history', params: { level: ['CRITICAL', 'FATAL'] } });
    const { search } = drillLocation(fatal, VIEW);
    expect(search).toMatch(/^\?level=CRITICAL&level=FATAL&/);
    expect(errorFilterFromUrl(search).levels).toEqual(['CRITICAL', 'FATAL']);
    for (const tile of ['fatal-per-1000', 'mtbf', 'mttr', 'downtime']) {
      expect(pageTileTarget(tile)).toEqual(fatal);
    }
    expect(pageTileTarget('errors-per-1000')?.params).toEqual({});
    expect(pageTileTarget('warnings-per-1000')?.params).toEqual({ level: ['WARNING'] });
    expect(pageTileTarget('cycle-p90')?.path).toBe('/processes/workflows');
    expect(pageTileTarget('mean-waiting')?.path).toBe('/processes/workflows');
    expect(pageTileTarget('mean-paused')?.path).toBe('/processes/workflows');
    expect(pageTileTarget('no-such-tile')).toBeNull();
  });
});

describe('error filter in the URL', () => {
  it('reads a known level and a type within the server limit, else nothing', () => {
    expect(errorFilterFromUrl('?errorType=bumperHit&level=CRITICAL')).toEqual({
      errorType: 'bumperHit',
      levels: ['CRITICAL'],
      cell: null,
    });
    expect(errorFilterFromUrl(`?errorType=${'x'.repeat(201)}&level=SEVERE`)).toEqual({
      errorType: null,
      levels: [],
      cell: null,
    });
    // Several levels, in the order of severity, an unknown one left out.
    expect(errorFilterFromUrl('?level=FATAL&level=SEVERE&level=WARNING').levels).toEqual([
      'WARNING',
      'FATAL',
    ]);
  });

  it('writes the filter, removes cleared parts and keeps the view', () => {
    const search = '?range=yesterday&vehicles=3,5&errorType=old';
    expect(withErrorFilter(search, { errorType: 'a b&c', levels: ['URGENT', 'FATAL'] })).toBe(
      '?range=yesterday&vehicles=3,5&errorType=a+b%26c&level=URGENT&level=FATAL',
    );
    expect(withErrorFilter(search, { errorType: null, levels: [] })).toBe(
      '?range=yesterday&vehicles=3,5',
    );
    expect(errorFilterFromUrl(withErrorFilter('', { errorType: 'a b&c', levels: [] }))).toEqual({
      errorType: 'a b&c',
      levels: [],
      cell: null,
    });
  });

  it('writes a map cell and clears it, an incomplete one is no filter', () => {
    const cell = { mapId: 'hall 1', cell: '4,7', grid: '0,0,1.25,40,16' };
    const search = withErrorFilter('?range=yesterday', { errorType: null, levels: [], cell });
    expect(search).toBe('?range=yesterday&mapId=hall+1&cell=4,7&grid=0,0,1.25,40,16');
    expect(errorFilterFromUrl(search).cell).toEqual(cell);
    expect(withErrorFilter(search, { errorType: null, levels: [], cell: null })).toBe(
      '?range=yesterday',
    );
    expect(errorFilterFromUrl('?mapId=hall-1&cell=4,7').cell).toBeNull();
    expect(withoutDrillParams(search)).toBe('?range=yesterday');
  });

  it('leaves the filters of one list out of the menu links, keeping the view', () => {
    expect(
      withoutDrillParams(
        '?range=yesterday&vehicles=3,5&errorType=x&level=FATAL&workflow=w&actionType=a&heatmapCell=2,14&cycleBucket=3',
      ),
    ).toBe('?range=yesterday&vehicles=3,5');
    expect(withoutDrillParams('?errorType=x')).toBe('');
  });
});
