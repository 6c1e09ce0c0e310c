/**
 * A KPI tile's sparkline as plain SVG paths: a tiny line without axes, gaps where a bucket
 * has no value. Drawn without ECharts, so the dashboard does not wait for (or download) a
 * chart library for its tiles.
 */

export interface SparklineModel {
  /** One label per bucket ("19.11.26"), shown on hover. */
  labels: string[];
  values: Array<number | null>;
  /** The values as the tile formats them ("96.2%"); the "no data" text for a gap. */
  texts: string[];
  /** Per bucket: still running (its value "so far"); drawn dashed into a lighter dot. */
  partial?: boolean[];
  color: string;
}

export interface SparklineGeometry {
  /** The line: one subpath per run of consecutive values (a lone value is a dot). */
  line: string;
  /** The filled area under each run of two or more values. */
  area: string;
  /** Into each running bucket: the dashed segment from the bucket before and its dot. */
  partialLine: string;
  /** Each running bucket's point (a zero-length segment: a round cap draws a dot). */
  partialDots: string;
  /** The x of each bucket, for the hover marker. */
  xs: number[];
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * Coordinates in a `width` x `height` box, `inset` kept free at the top and bottom for the
 * stroke. Like the chart it replaces, the y range is the values' own (not from zero), so a
 * KPI that moves within a few percent still shows its shape; a constant one is a flat line
 * in the middle.
 */
export function sparklineGeometry(
  values: ReadonlyArray<number | null>,
  {
    width,
    height,
    inset = 3,
    partial = [],
  }: { width: number; height: number; inset?: number; partial?: readonly boolean[] },
): SparklineGeometry {
  const known = values.filter((value): value is number => value !== null);
  const low = Math.min(...known);
  const high = Math.max(...known);
  const span = high - low;
  const xs = values.map((_, index) =>
    round(values.length > 1 ? (index / (values.length - 1)) * width : width / 2),
  );
  const yOf = (value: number) =>
    round(span === 0 ? height / 2 : inset + (1 - (value - low) / span) * (height - 2 * inset));

  // A running bucket is not part of the settled line and area: it is drawn on its own.
  const settled = values.map((value, index) => (partial[index] ? null : value));
  const runs: Array<Array<[number, number]>> = [];
  let run: Array<[number, number]> = [];
  settled.forEach((value, index) => {
    if (value === null) {
      if (run.length > 0) runs.push(run);
      run = [];
      return;
    }
    run.push([xs[index] ?? 0, yOf(value)]);
  });
  if (run.length > 0) runs.push(run);

  const line = runs
    .map((points) => {
      const [first, ...rest] = points;
      if (!first) return '';
      // A zero-length segment with a round cap draws a lone value as a dot.
      const tail = rest.length > 0 ? rest : [first];
      return `M${first[0]} ${first[1]}${tail.map(([x, y]) => `L${x} ${y}`).join('')}`;
    })
    .join('');
  const area = runs
    .filter((points) => points.length > 1)
    .map((points) => {
      const first = points[0] as [number, number];
      const last = points[points.length - 1] as [number, number];
      const top = points.map(([x, y]) => `L${x} ${y}`).join('');
      return `M${first[0]} ${height}${top}L${last[0]} ${height}Z`;
    })
    .join('');
  const partialLine = values
    .map((value, index) => {
      if (!partial[index] || value === null) return '';
      const x = xs[index] ?? 0;
      const y = yOf(value);
      const before = index > 0 ? values[index - 1] : null;
      const from =
        before === null || before === undefined ? [x, y] : [xs[index - 1] ?? 0, yOf(before)];
      return `M${from[0]} ${from[1]}L${x} ${y}`;
    })
    .join('');
  const partialDots = values
    .map((value, index) =>
      partial[index] && value !== null
        ? `M${xs[index] ?? 0} ${yOf(value)}L${xs[index] ?? 0} ${yOf(value)}`
        : '',
    )
    .join('');
  return { line, area, partialLine, partialDots, xs };
}

/** The bucket nearest to a pointer at `ratio` (0..1) of the width. */
export function nearestBucket(ratio: number, count: number): number {
  if (count <= 1) return 0;
  return Math.min(count - 1, Math.max(0, Math.round(ratio * (count - 1))));
}
