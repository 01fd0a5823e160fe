/**
 * The value axes of the viewer's uPlot charts: tick labels in one style per axis (decimals fixed by the tick step, so
 * `$0.000010` and `$0.000020`; exponents for the whole axis only past 6 decimals; an optional prefix such as `$`),
 * and an axis as wide as its widest label, measured in the axis's font (uPlot's fixed 50 px cut `0.000010` on the left).
 * @module
 */
import uPlot from 'uplot';

/** Most decimals written out; a step finer than this writes the axis with exponents (`2.5e-7`). */
const MAX_DECIMALS = 6;
/** Room beside the widest label, px. */
const SLACK_PX = 4;

/** Decimals the tick step needs: 0.000002 -> 6, 0.25 -> 2, 5 -> 0. */
export function decimalsOf(step: number): number {
  if (!Number.isFinite(step) || step <= 0) return 0;
  const fixed = Number(step.toPrecision(6)).toFixed(20).replace(/0+$/, '');
  const dot = fixed.indexOf('.');
  return dot < 0 ? 0 : fixed.length - dot - 1;
}

/**
 * The labels of ticks `splits` spaced `step` apart, each written alike: `prefix` after any minus sign, zero as `0`.
 * @param prefix - a unit written before the number, e.g. `$`.
 */
export function tickLabels(splits: readonly number[], step: number, prefix = ''): string[] {
  const decimals = decimalsOf(step);
  const write = (v: number): string => (decimals <= MAX_DECIMALS ? v.toFixed(decimals) : v.toExponential(1).replace('.0e', 'e'));
  return splits.map((v) => (v === 0 ? `${prefix}0` : `${v < 0 ? '-' : ''}${prefix}${write(Math.abs(v))}`));
}

let measurer: CanvasRenderingContext2D | null | undefined;

/** Width in CSS px of the widest of `labels` in `font` (a canvas font as uPlot scales it: device pixels). */
function widest(labels: readonly string[], font: string): number {
  // a canvas of its own: uPlot keeps the font it last set on its own context and would not set it again
  measurer ??= document.createElement('canvas').getContext('2d');
  if (!measurer) return 0;
  measurer.font = font;
  let max = 0;
  for (const l of labels) max = Math.max(max, measurer.measureText(l).width);
  return max / (uPlot.pxRatio || 1);
}

/** The axis's font as uPlot holds it once set up (`[font, size]`), or as configured. */
function fontOf(axis: uPlot.Axis): string {
  const f = axis.font as unknown;
  return Array.isArray(f) ? String(f[0]) : typeof f === 'string' ? f : `${12 * (uPlot.pxRatio || 1)}px system-ui, sans-serif`;
}

/** An axis `size` function: the widest label, plus the ticks and the gap beside it. */
export function fitLabels(u: uPlot, values: string[] | null, axisIdx: number): number {
  const axis = u.axes[axisIdx]!;
  const ticks = axis.ticks?.show === false ? 0 : axis.ticks?.size ?? 10;
  return Math.ceil(widest(values ?? [], fontOf(axis)) + ticks + (axis.gap ?? 5) + SLACK_PX);
}

/** A value axis whose labels fit: {@link tickLabels} with `prefix`, sized by {@link fitLabels}; `extra` merged in. */
export function valueAxis(prefix = '', extra: uPlot.Axis = {}): uPlot.Axis {
  return { ...extra, size: fitLabels, values: (_u, splits, _i, _space, step) => tickLabels(splits, step, prefix) };
}
