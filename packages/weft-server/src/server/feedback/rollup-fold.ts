/**
 * One hour's feedback folded into rollup rows: per feedback type, the rows (path `[]`), and per key path inside the
 * payloads (objects only, never into arrays) what `/feedback/stats` reads there (stats-sql.ts `valueSql`): the non-null
 * values (a categorical metric's count), the JSON numbers (count, exact sum, min, max: a numeric metric) and the
 * booleans (true and false counts: a boolean metric).
 * @module
 */
import { addExact } from './exact-sum.js';

/** The rollup of one (feedback type, path) of an hour. */
export interface RollupCell {
  type: string;
  /** The path's keys as JSON text (`["output","score"]`; `[]`: the rows themselves). */
  path: string;
  /** Rows (path `[]`) or non-null values at the path. */
  present: number;
  /** JSON numbers at the path: count, exact sum (partials, exact-sum.ts; null after an overflow), min, max. */
  count: number;
  sum: number[] | null;
  lo: number | null;
  hi: number | null;
  /** The JSON numbers at the path, in row order (stored sorted: {@link encodeValues}). */
  values: number[];
  /** Booleans at the path. */
  t: number;
  f: number;
}

/** The folding of an hour's rows, cell by (type, path). */
export class HourFold {
  readonly #cells = new Map<string, RollupCell>();

  #cell(type: string, keys: readonly string[]): RollupCell {
    const path = JSON.stringify(keys);
    const key = `${type}\u0000${path}`;
    let c = this.#cells.get(key);
    if (!c) this.#cells.set(key, (c = { type, path, present: 0, count: 0, sum: [], lo: null, hi: null, values: [], t: 0, f: 0 }));
    return c;
  }

  /** Adds one feedback row: its type and its payload (parsed JSON). */
  add(type: string, payload: unknown): void {
    this.#cell(type, []).present += 1;
    if (payload !== null && typeof payload === 'object' && !Array.isArray(payload)) this.#walk(type, [], payload as Record<string, unknown>);
  }

  #walk(type: string, keys: string[], node: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(node)) {
      if (v === null || v === undefined) continue;
      const path = [...keys, k];
      const c = this.#cell(type, path);
      c.present += 1;
      if (typeof v === 'number') {
        c.count += 1;
        c.values.push(v);
        if (c.sum !== null && !addExact(c.sum, v)) c.sum = null;
        if (c.lo === null || v < c.lo) c.lo = v;
        if (c.hi === null || v > c.hi) c.hi = v;
      } else if (typeof v === 'boolean') {
        if (v) c.t += 1;
        else c.f += 1;
      } else if (typeof v === 'object' && !Array.isArray(v)) this.#walk(type, path, v as Record<string, unknown>);
    }
  }

  /** The cells folded so far. */
  cells(): RollupCell[] {
    return [...this.#cells.values()];
  }
}

/** Numbers as stored in a rollup's `vals`: ascending, little-endian float64s, base64 (null for none). */
export function encodeValues(values: readonly number[]): string | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  return Buffer.from(sorted.buffer).toString('base64');
}

/** The numbers of a rollup's `vals` ({@link encodeValues}). */
export function decodeValues(text: string): Float64Array {
  const bytes = Buffer.from(text, 'base64');
  const out = new Float64Array(bytes.length / 8);
  new Uint8Array(out.buffer).set(bytes);
  return out;
}
