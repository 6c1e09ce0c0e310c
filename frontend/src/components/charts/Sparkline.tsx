import { Tooltip } from '@mantine/core';
import { type PointerEvent, useMemo, useState } from 'react';
import { nearestBucket, type SparklineModel, sparklineGeometry } from './sparkline';

// The drawing's own units; the SVG stretches to the tile's width (the stroke does not).
const VIEW_WIDTH = 200;

/**
 * A KPI tile's sparkline; hovering shows the bucket and its value. A running bucket is a
 * dashed segment into a lighter dot (its label says "so far").
 */
export function Sparkline({
  model,
  height = 48,
  ariaLabel,
  onOpen,
}: {
  model: SparklineModel;
  height?: number;
  /** Read by screen readers instead of the drawing. */
  ariaLabel: string;
  /**
   * What a click opens, in a tile whose link covers it: the line then lies above that link
   * (else hovering could not read its buckets, "so far" included) and opens the same page.
   * Pointer only; the tile's link is the keyboard's way.
   */
  onOpen?: () => void;
}) {
  const [active, setActive] = useState<number | null>(null);
  const geometry = useMemo(
    () => sparklineGeometry(model.values, { width: VIEW_WIDTH, height, partial: model.partial }),
    [model.values, model.partial, height],
  );
  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const ratio = box.width > 0 ? (event.clientX - box.left) / box.width : 0;
    setActive(nearestBucket(ratio, model.values.length));
  };
  const markerX = active === null ? undefined : geometry.xs[active];
  const label =
    active === null ? '' : `${model.labels[active] ?? ''}: ${model.texts[active] ?? ''}`;
  return (
    <Tooltip.Floating label={label} disabled={active === null} fz="xs">
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a pointer shortcut to the tile's own link, which is the keyboard's way */}
      <svg
        role="img"
        aria-label={ariaLabel}
        data-testid="sparkline"
        viewBox={`0 0 ${VIEW_WIDTH} ${height}`}
        preserveAspectRatio="none"
        width="100%"
        height={height}
        style={{
          display: 'block',
          overflow: 'visible',
          ...(onOpen ? { position: 'relative', zIndex: 1, cursor: 'pointer' } : {}),
        }}
        onClick={onOpen}
        onPointerMove={onPointerMove}
        onPointerLeave={() => setActive(null)}
      >
        <path d={geometry.area} fill={model.color} fillOpacity={0.12} stroke="none" />
        <path
          d={geometry.line}
          fill="none"
          stroke={model.color}
          strokeWidth={2}
          strokeLinecap="round"
          strokeLinejoin="round"
          vectorEffect="non-scaling-stroke"
        />
        {geometry.partialLine && (
          <path
            d={geometry.partialLine}
            data-testid="sparkline-partial"
            fill="none"
            stroke={model.color}
            strokeOpacity={0.7}
            strokeWidth={2}
            strokeDasharray="3 3"
            strokeLinecap="butt"
            vectorEffect="non-scaling-stroke"
          />
        )}
        {geometry.partialDots && (
          <path
            d={geometry.partialDots}
            fill="none"
            stroke={model.color}
            strokeOpacity={0.45}
            strokeWidth={6}
            strokeLinecap="round"
            vectorEffect="non-scaling-stroke"
          />
        )}
        {markerX !== undefined && (
          <line
            x1={markerX}
            x2={markerX}
            y1={0}
            y2={height}
            stroke={model.color}
            strokeOpacity={0.5}
            strokeWidth={1}
            vectorEffect="non-scaling-stroke"
          />
        )}
      </svg>
    </Tooltip.Floating>
  );
}
