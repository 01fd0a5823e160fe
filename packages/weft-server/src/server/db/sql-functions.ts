/**
 * SQLite functions the query compiler relies on, registered on every connection that runs stream queries.
 * @module
 */
import type Database from 'better-sqlite3';
import { resolvePath } from './field-path.js';
import { percentileOf } from '../stats/stats-aggregate.js';
import { NUMERIC_TEXT } from './numeric-text.js';
import { opShortName } from 'weft-trace/wire';
import { latencyBin } from '../stats/latency-histogram.js';

/**
 * Unicode case folding for case-insensitive `$contains`: NFC, then upper, then lower case, then `ς`→`σ`
 * and `ß`→`ss`, so that `ß`/`ẞ`/`SS`, `Σ`/`σ`/`ς`, `É`/`é` and other non-ASCII pairs compare equal
 * (SQLite's own `lower()` folds ASCII only).
 */
export function foldCase(text: string): string {
  return text.normalize('NFC').toUpperCase().toLowerCase().replace(/ς/g, 'σ').replace(/ß/g, 'ss');
}

/** `$convert` to bool: NULL stays NULL; numbers are true when non-zero; text `true`/`1` (any case) is true. */
function toBool(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'bigint') return Number(value) !== 0 ? 1 : 0;
  if (typeof value === 'string') return ['true', '1'].includes(value.trim().toLowerCase()) ? 1 : 0;
  return 1;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * A value as a number, or null when it is none: numbers as they are (integers exact), numeric text
 * (`NUMERIC_TEXT`) as its number, any other text (and NULL) null. Integers arrive as BigInt (`safeIntegers`).
 */
export function numberOrNull(value: unknown): number | bigint | null {
  if (typeof value === 'number' || typeof value === 'bigint') return value;
  if (typeof value !== 'string' || !NUMERIC_TEXT.test(value)) return null;
  const text = value.trim();
  if (/^[+-]?[0-9]+$/.test(text)) {
    const n = BigInt(text);
    if (n >= INT64_MIN && n <= INT64_MAX) return n;
  }
  return Number(text);
}

/** A JSON value as SQL: numbers and text as is, booleans 1/0, null NULL, objects and arrays as JSON text. */
export function toSql(value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Reads a dotted path whose keys may contain dots (see `resolvePath`) from a JSON column's text. */
function getPath(json: unknown, segments: unknown, exact = false): string | number | null {
  if (typeof json !== 'string' || typeof segments !== 'string') return null;
  try {
    return toSql(resolvePath(JSON.parse(json), JSON.parse(segments) as string[], exact)?.value);
  } catch {
    return null;
  }
}

/** Adds the numbers of a call summary's `usage` (JSON text: model → token kind → count) into `acc`, per model. */
function addUsage(acc: Map<string, Record<string, number>>, summary: unknown): void {
  if (typeof summary !== 'string' || !summary.includes('"usage"')) return;
  let usage: unknown;
  try {
    usage = (JSON.parse(summary) as { usage?: unknown }).usage;
  } catch {
    return;
  }
  if (usage === null || typeof usage !== 'object' || Array.isArray(usage)) return;
  for (const [model, counts] of Object.entries(usage as Record<string, unknown>)) {
    if (counts === null || typeof counts !== 'object' || Array.isArray(counts)) continue;
    let sums = acc.get(model);
    if (!sums) acc.set(model, (sums = {}));
    for (const [k, v] of Object.entries(counts as Record<string, unknown>)) if (typeof v === 'number' && Number.isFinite(v)) sums[k] = (sums[k] ?? 0) + v;
  }
}

/**
 * Registers, as deterministic functions: `weft_fold(text)` ({@link foldCase}), `weft_bool(x)` and
 * `weft_get(json_text, segments_json)` (a path lookup that can reach keys holding dots) and `weft_get_exact` (the
 * same, segments never joined: a quoted path whose numeric segment names an object's key) and `weft_numq(x)`
 * ({@link numberOrNull}) and `weft_op_short(op_name)` (`opShortName`: the name inside an op ref); and the aggregate
 * `weft_percentile(x, p)`: the `p`th percentile (0-100) of the numbers among `x`, interpolated linearly between ranks
 * as PostgreSQL's `percentile_cont` (NULL without one); and the aggregate `weft_usage_sum(summary)`: the `usage` of
 * call summaries summed per model and token kind, as JSON text; and `weft_latency_bin(ms)`: the overview histogram's bin
 * of a latency (stats/latency-histogram.ts `latencyBin`, NULL for NULL).
 *
 * @param db - an open connection; registering twice replaces the functions.
 */
export function registerSqlFunctions(db: Database.Database): void {
  const opts = { deterministic: true, varargs: false } as const;
  db.function('weft_fold', opts, (s: unknown) => (s === null || s === undefined ? null : foldCase(String(s))));
  db.function('weft_bool', opts, (x: unknown) => toBool(x));
  db.function('weft_get', opts, (json: unknown, segments: unknown) => getPath(json, segments));
  db.function('weft_get_exact', opts, (json: unknown, segments: unknown) => getPath(json, segments, true));
  db.function('weft_numq', { ...opts, safeIntegers: true }, (x: unknown) => numberOrNull(x));
  db.function('weft_op_short', opts, (s: unknown) => (typeof s === 'string' ? opShortName(s) : null));
  db.function('weft_latency_bin', opts, (ms: unknown) => latencyBin(typeof ms === 'number' || typeof ms === 'bigint' ? Number(ms) : null));
  db.aggregate('weft_usage_sum', {
    start: () => new Map<string, Record<string, number>>(),
    step: (acc: Map<string, Record<string, number>>, summary: unknown) => addUsage(acc, summary),
    result: (acc: Map<string, Record<string, number>>) => JSON.stringify(Object.fromEntries(acc)),
  });
  db.aggregate('weft_percentile', {
    varargs: true,
    start: () => ({ values: [] as number[], p: 0 }),
    step: (acc: { values: number[]; p: number }, x: unknown, ...rest: unknown[]) => {
      if (typeof x === 'number' || typeof x === 'bigint') acc.values.push(Number(x));
      acc.p = Number(rest[0]);
      return acc;
    },
    result: (acc: { values: number[]; p: number }) => (acc.values.length === 0 ? null : percentileOf(Float64Array.from(acc.values), acc.p)),
  });
}
