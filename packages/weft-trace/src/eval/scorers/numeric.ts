/**
 * Built-in scorer for numbers: closeness of the output to `expected`.
 * @module
 */
import { named, type Scorer } from '../scorer.js';

/** Options of {@link numericCloseness}. */
export interface NumericClosenessOptions {
  /** Largest absolute difference still counted as `close`. @defaultValue 1e-6 */
  tolerance?: number;
  /** Largest difference relative to `|expected|` still counted as `close` (either bound suffices). @defaultValue 0 */
  relativeTolerance?: number;
}

function toNumber(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
}

/**
 * `numeric_closeness`: `{ close, abs_error }`: `close` (`numeric_closeness.close`) is `true` when
 * `|output − expected| <= tolerance` or `<= relativeTolerance × |expected|`; `abs_error` is the absolute
 * difference. An output or expected value that is not a number (numeric strings are read) scores `close: false`
 * and no `abs_error`.
 * @throws {TypeError} when a tolerance is negative or not a number.
 */
export function numericCloseness(options: NumericClosenessOptions = {}): Scorer {
  const tolerance = options.tolerance ?? 1e-6;
  const relative = options.relativeTolerance ?? 0;
  for (const [k, v] of [['tolerance', tolerance], ['relativeTolerance', relative]] as const) {
    if (typeof v !== 'number' || !(v >= 0)) throw new TypeError(`numericCloseness: ${k} must be a number >= 0, got ${String(v)}`);
  }
  return named('numeric_closeness', ({ output, expected }) => {
    const a = toNumber(output);
    const b = toNumber(expected);
    if (!Number.isFinite(a) || !Number.isFinite(b)) return { close: false };
    const err = Math.abs(a - b);
    return { close: err <= tolerance || err <= relative * Math.abs(b), abs_error: err };
  });
}
