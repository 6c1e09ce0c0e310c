/** Drill-down: the list or page behind every chart element and KPI tile (`targets.ts`). */
export * from './battery';
export * from './errors';
export * from './orders';
export * from './states';
export * from './summaries';
export * from './targets';
