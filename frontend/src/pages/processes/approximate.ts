import type { CycleTimes, ProcessEntry } from '../../api/analytics-processes';
import type { KpiTexts } from '../../components/charts/kpiTexts';
import { cellText } from '../../components/tables/cellText';

/**
 * Percentiles of periods longer than 31 days come from histograms (product.md section 3) and
 * the API flags them `exact: false`; they are shown with "≈" before the value and a note
 * that explains it. An absent flag means exact (older answers carry none).
 */

/** Whether a flagged figure is approximate: only an explicit `false` is. */
export function isApproximate(exact: boolean | null | undefined): boolean {
  return exact === false;
}

/** Whether any of these cycle times has approximate percentiles. */
export function anyApproximate(cycles: readonly Pick<CycleTimes, 'exact'>[]): boolean {
  return cycles.some((cycle) => isApproximate(cycle.exact));
}

/** Whether processes/analysis shows any approximate percentile (fleet or a vehicle, either period). */
export function processesApproximate(result: {
  fleet: ProcessEntry;
  entries: readonly ProcessEntry[];
}): boolean {
  return anyApproximate(
    [result.fleet, ...result.entries].flatMap((entry) => [
      entry.current.cycle,
      entry.previous.cycle,
    ]),
  );
}

/** "≈ 2 h 05 min" for an approximate value; "no data" and exact values stay as they are. */
export function markApproximate(text: string, hasValue: boolean, approximate: boolean): string {
  return approximate && hasValue ? `≈ ${text}` : text;
}

/** A list cell (`cellText`) of a percentile, with "≈" when approximate. */
export function percentileCell(
  value: number | null | undefined,
  language: string,
  approximate: boolean,
): string {
  return markApproximate(
    cellText(value, 'duration', language),
    value !== null && value !== undefined,
    approximate,
  );
}

/** A chart tooltip's value formatter that puts "≈" before the numbers of an approximate series. */
export function approximateFormatter(
  format: (value: unknown) => string,
  approximate: boolean,
): (value: unknown) => string {
  return (value) => markApproximate(format(value), typeof value === 'number', approximate);
}

/**
 * A KPI tile's texts with "≈" before the value and the previous value where each is
 * approximate (the change stays as computed: it is the difference of the two shown figures).
 */
export function approximateKpiTexts(
  texts: KpiTexts,
  values: { current: number | null; previous: number | null },
  approximate: { current: boolean; previous: boolean },
): KpiTexts {
  return {
    ...texts,
    value: markApproximate(texts.value, values.current !== null, approximate.current),
    previousText:
      texts.previousText === undefined
        ? undefined
        : markApproximate(texts.previousText, values.previous !== null, approximate.previous),
  };
}
