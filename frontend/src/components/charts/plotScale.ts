/**
 * A plot drawn to scale (a site map): a metre across is as long on screen as a metre up. The
 * chart's height follows its width, within bounds; where a bound stops it, the plot narrows
 * (centred) instead of stretching.
 */

/** The grid's margins around the plot, in px (axis labels and names, legend, colour scale). */
export interface PlotMargins {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** What a chart model asks for to be drawn to scale. */
export interface PlotScale {
  /** The plot's width over its height (the axes' spans in metres). */
  aspect: number;
  /** The option's grid margins, fixed in px (no `containLabel`), so the plot's size is known. */
  margins: PlotMargins;
}

/** A map never shrinks below a readable band nor grows taller than a screen. */
export const SCALED_HEIGHT = { min: 160, max: 640 };

/**
 * The chart's height at `width` px and the grid that keeps the plot to scale in it; null for
 * an aspect that is no ratio (an empty span), where the chart keeps its own height.
 */
export function scaledFrame(
  width: number,
  { aspect, margins }: PlotScale,
  bounds = SCALED_HEIGHT,
): { height: number; grid: PlotMargins } | null {
  if (!(Number.isFinite(aspect) && aspect > 0)) {
    return null;
  }
  const across = Math.max(1, width - margins.left - margins.right);
  const wanted = across / aspect + margins.top + margins.bottom;
  const height = Math.round(Math.min(bounds.max, Math.max(bounds.min, wanted)));
  const fitting = (height - margins.top - margins.bottom) * aspect;
  const spare = Math.max(0, across - fitting);
  return {
    height,
    grid: { ...margins, left: margins.left + spare / 2, right: margins.right + spare / 2 },
  };
}
