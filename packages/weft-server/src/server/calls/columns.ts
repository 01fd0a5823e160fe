/**
 * stream_query `columns`: which record keys each answered record keeps, as Weave's trace server selects them.
 * @module
 */
import { parseFieldPath } from '../db/field-path.js';
import { QueryError } from '../db/query-error.js';
import type { CallsQuery } from './query-walk.js';
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

/** Weave's names of the JSON columns as stored (`output_dump`), read as the record key (`output`). */
const DUMP_ALIASES: Record<string, string> = { inputs_dump: 'inputs', output_dump: 'output', attributes_dump: 'attributes', summary_dump: 'summary' };

/**
 * Parses and checks column paths (`columns`, `expand_columns`).
 *
 * @param columns - record keys (`op_name`) or dotted paths inside them (`inputs.question`, `summary.usage`); Weave's
 *   `<column>_dump` names the JSON column (`output_dump` is `output`).
 * @param loc - location of the list in the request, for errors.
 * @throws QueryError (→ 422) for a malformed path or an unknown top-level key.
 */
export function parseColumns(columns: readonly string[], loc: string[]): ColumnPath[] {
  return columns.map((column, i) => {
    const { segments, quoted } = parseFieldPath(column, [...loc, String(i)]);
    const [first = '', ...below] = segments;
    const key = DUMP_ALIASES[first] ?? first;
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

/** Record keys every projection keeps, as Weave's trace server always selects them (its `REQUIRED_CALL_COLUMNS`). */
const ALWAYS = ['id', 'project_id', 'trace_id', 'op_name', 'started_at'];
/** Kept besides `summary` (selected, or brought by `include_costs`): what Weave derives `summary.weave` from. */
const WITH_SUMMARY = ['ended_at', 'exception', 'display_name'];

/**
 * Builds the projection of `columns`, as Weave's trace server answers one: each listed column whole (a dotted path
 * selects its top-level column: `inputs.q` answers all of `inputs`), plus `id`, `project_id`, `trace_id`, `op_name`
 * and `started_at` always, and `ended_at`, `exception` and `display_name` with `summary`. Keys keep the record's
 * order; a key not selected is left out. Without `columns` (null or absent) records are kept whole.
 *
 * @param q - the query: its `columns`; `include_costs` brings `summary` (where the costs go), `include_usernames`
 *   brings `svc_user_id` (whose name is answered).
 * @returns a function from a full record to the answered one, or undefined for no projection.
 * @throws QueryError (→ 422) for an unknown column.
 */
export function compileColumns(q: Pick<CallsQuery, 'columns' | 'include_costs' | 'include_usernames'>): ((r: WireRecord) => WireRecord) | undefined {
  if (!q.columns) return undefined;
  const keys = new Set([...ALWAYS, ...parseColumns(q.columns, ['columns']).map((c) => c.key)]);
  if (q.include_costs) keys.add('summary');
  if (q.include_usernames) keys.add('svc_user_id');
  if (keys.has('summary')) for (const k of WITH_SUMMARY) keys.add(k);
  return function project(record) {
    const out: WireRecord = {};
    for (const key of Object.keys(record)) if (keys.has(key)) out[key] = record[key];
    return out;
  };
}
