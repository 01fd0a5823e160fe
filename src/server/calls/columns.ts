/**
 * stream_query `columns`: which record keys (or dotted paths inside them) each answered record keeps.
 * @module
 */
import { parseFieldPath, resolvePath } from '../db/field-path.js';
import { QueryError } from '../db/query-error.js';
import { CALL_COLUMNS, EXTRA_COLUMNS } from './records.js';

/** A record as answered: wire keys to JSON values. */
export type WireRecord = Record<string, unknown>;

const KNOWN = new Set<string>([...CALL_COLUMNS, ...EXTRA_COLUMNS]);

/** A column checked against the record keys: its top-level key and the path below it. */
export interface ColumnPath {
  key: string;
  below: string[];
  exact: boolean;
}

/**
 * Parses and checks column paths (`columns`, `expand_columns`).
 *
 * @param columns - record keys (`op_name`) or dotted paths inside them (`inputs.question`, `summary.usage`).
 * @param loc - location of the list in the request, for errors.
 * @throws QueryError (→ 422) for a malformed path or an unknown top-level key.
 */
export function parseColumns(columns: readonly string[], loc: string[]): ColumnPath[] {
  return columns.map((column, i) => {
    const { segments, quoted } = parseFieldPath(column, [...loc, String(i)]);
    const [key = '', ...below] = segments;
    if (!KNOWN.has(key)) {
      throw new QueryError([...loc, String(i)], `unknown column ${JSON.stringify(column)}; expected one of ${[...KNOWN].join(', ')}, or a dotted path inside one`);
    }
    return { key, below, exact: quoted };
  });
}

/** Sets `value` at `keys` inside `target`, creating objects (or arrays, for numeric keys) on the way. */
export function setAt(target: WireRecord, keys: readonly (string | number)[], value: unknown): void {
  let node: Record<string | number, unknown> = target;
  keys.forEach((key, i) => {
    if (i === keys.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    if (next === null || typeof next !== 'object') node[key] = typeof keys[i + 1] === 'number' ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
}

/**
 * Builds the projection of `columns`: `id` always, then each listed key whole, or for a dotted path only
 * the value at that path, nested as in the record (`inputs.q` gives `{inputs: {q: ...}}`; a path that
 * does not exist adds nothing). Without `columns` (null or absent) records are kept whole.
 *
 * @param columns - the request's `columns`.
 * @returns a function from a full record to the answered one, or undefined for no projection.
 * @throws QueryError (→ 422) for an unknown column.
 */
export function compileColumns(columns: readonly string[] | null | undefined): ((r: WireRecord) => WireRecord) | undefined {
  if (!columns) return undefined;
  const paths = parseColumns(columns, ['columns']);
  return function project(record) {
    const out: WireRecord = { id: record['id'] };
    for (const { key, below, exact } of paths) {
      if (below.length === 0) {
        if (key in record) out[key] = record[key];
        continue;
      }
      const found = resolvePath(record[key], below, exact);
      if (found) setAt(out, [key, ...found.keys], found.value);
    }
    return out;
  };
}
