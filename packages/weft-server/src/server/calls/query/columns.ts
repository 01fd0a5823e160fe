/**
 * stream_query `columns`: which record keys each answered record keeps, as Weave's trace server selects them.
 * @module
 */
import { parseFieldPath } from '../../db/field-path.js';
import { QueryError } from '../../db/query-error.js';
import type { z } from 'zod';
import type { CallsQueryReq } from 'weft-trace/wire';
import { CALL_COLUMNS, EXTRA_COLUMNS } from './records.js';

/** The query fields a projection reads (the zod output of `CallsQueryReq`; query-walk.ts's `CallsQuery`). */
type ProjectionQuery = Pick<z.output<typeof CallsQueryReq>, 'columns' | 'expand_columns' | 'include_costs' | 'include_usernames'>;

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
 * The record keys answered records keep under `columns` (see {@link compileColumns}), or undefined when records are kept
 * whole (no `columns`).
 * @throws QueryError (→ 422) for an unknown column.
 */
function keptKeys(q: ProjectionQuery): Set<string> | undefined {
  if (!q.columns) return undefined;
  const keys = new Set([...ALWAYS, ...parseColumns(q.columns, ['columns']).map((c) => c.key)]);
  if (q.include_costs) keys.add('summary');
  if (q.include_usernames) keys.add('svc_user_id');
  if (keys.has('summary')) for (const k of WITH_SUMMARY) keys.add(k);
  return keys;
}

/** JSON columns a query may leave unread: what their records would carry is not answered. */
const SKIPPABLE = ['attributes', 'inputs', 'output'] as const;

/**
 * The JSON columns (`attributes`, `inputs`, `output`) a query's answer never shows, so its SQL need not read them:
 * those `columns` leaves out and `expand_columns` does not name. Every other column is always read (the derived
 * `summary.status` and `latency_ms` read `summary`, `exception` and the times). Reading them cost a 10,000-call trace's
 * tree query a third of its SQLite time (issue 40), and their JSON parse.
 *
 * @param q - the query: `columns`, `expand_columns` (dotted paths, `<column>_dump` names).
 * @returns the column names not to read; empty without `columns`.
 * @throws QueryError (→ 422) for an unknown column in either list.
 */
export function unreadColumns(q: ProjectionQuery): string[] {
  const keys = keptKeys(q);
  if (!keys) return [];
  for (const c of q.expand_columns ? parseColumns(q.expand_columns, ['expand_columns']) : []) keys.add(c.key);
  return SKIPPABLE.filter((c) => !keys.has(c));
}

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
export function compileColumns(q: ProjectionQuery): ((r: WireRecord) => WireRecord) | undefined {
  const keys = keptKeys(q);
  if (!keys) return undefined;
  return function project(record) {
    const out: WireRecord = {};
    for (const key of Object.keys(record)) if (keys.has(key)) out[key] = record[key];
    return out;
  };
}
