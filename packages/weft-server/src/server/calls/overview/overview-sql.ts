/**
 * The overview's aggregation in SQL, written once for both engines: the trace roots started in some time ranges, counted
 * per time bucket, root op and latency bin (and per model of their usage), and their token usage summed per bucket, root
 * op and model, as SQL steps (db/sql-steps.ts) run by the store's runner; each engine's few leaves are an
 * {@link OverviewEngine}. The same statements answer the live part of an overview (overview.ts) and fill one hour's
 * stored rollup (rollup-refresh.ts), so both hold the same figures.
 * @module
 */
import type { Dialect } from '../../db/dialect.js';
import { all, type Steps } from '../../db/sql-steps.js';
import { derivedSql, type FieldLeaves } from '../query/fields.js';
import { PG_LEAVES } from '../query/pg-query-sql.js';
import { SQLITE_LEAVES } from '../query/query-sql.js';

/** What the overview asks of a store. */
export interface OverviewQuery {
  projectId: string;
  /** Roots started in `[startMs, endMs)`, epoch ms. */
  startMs: number;
  endMs: number;
  /** Bucket edges, epoch ms (`planBuckets`): bucket i is `[edges[i], edges[i+1])`; they cover the window. */
  edges: readonly number[];
  groupBy: 'op_name' | 'model' | null;
}

/** Roots to read: those of a project started in any of `ranges`, in buckets of `edges`. */
export interface RootsQuery {
  projectId: string;
  /** `[startMs, endMs)` ranges, epoch ms, disjoint, inside the edges. */
  ranges: readonly (readonly [number, number])[];
  /** Bucket edges, epoch ms: bucket i is `[edges[i], edges[i+1])`. */
  edges: readonly number[];
  /** Also count the roots per model of their usage (rows with `model` set). */
  withModels: boolean;
  /**
   * Only the roots of one slice of the (single) range, in key order ({@link RootKey}): after the key `after` (from the
   * range's start when null), up to and with the key `through` (to the range's end when null).
   */
  slice?: { after: RootKey | null; through: RootKey | null };
}

/**
 * A root's place in key order, `started_at` ascending then `id` descending ({@link KEY_ORDER}: `calls_roots_desc` read
 * backwards on PostgreSQL): its normalized `started_at` and its id.
 */
export type RootKey = readonly [startedAt: string, id: string];

/**
 * Counts of the roots of one bucket `b` and root op with latency bin `k` (null: running): with `model` null all of
 * them, else those whose usage names that model (`(none)`: no usage), a root counting once per model.
 */
export interface RootFiguresRow {
  b: number;
  op: string | null;
  model: string | null;
  k: number | null;
  n: number;
  e: number;
  de: number;
}

/** The token kinds summed per model (the names of `summary.usage`, see prices.ts). */
export const USAGE_KEYS = ['prompt_tokens', 'input_tokens', 'completion_tokens', 'output_tokens', 'requests', 'total_tokens',
  'cache_read_input_tokens', 'cache_creation_input_tokens', 'input_audio_tokens', 'output_audio_tokens'] as const;

/** The usage of one model summed over the roots of one bucket and root op. */
export type OverviewUsageRow = { b: number; op: string | null; model: string } & { [K in (typeof USAGE_KEYS)[number]]: number | null };

/** An engine's part of the SQL. */
interface OverviewEngine {
  /** What follows `FROM calls` in the roots' scan (PostgreSQL: the summary parsed once a root, `p.sj`). */
  from: string;
  /** `summary.status` of the current `calls` row (text). */
  status: string;
  /** The latency bin (latency-histogram.ts) of the current `calls` row (NULL while running). */
  bin: string;
  /** What the usage is read from, as the roots' column `doc`: SQLite the summary's JSON text, PostgreSQL its `usage` as jsonb. */
  doc: string;
  /** A `FROM` item listing `(key, value)` of the usage object in `doc` (none when it holds no object), as `u`. */
  usageEach(doc: string): string;
}

/**
 * PostgreSQL's leaves, with `calls.summary` read from `p.sj`: the summary as jsonb, parsed once a root (`json`
 * operators parse the whole text at each read, and `summary.status` read it up to five times, the usage once a token
 * kind). `weft_jv` turns a JSON null into NULL and an object or array into its text: neither changes what the status
 * compares (`cmp`: an object, an array and a string all compare as text; `IS NULL`), so a JSON null read as NULL is all
 * it keeps. The store holds no summary that jsonb refuses: db/pg-json.ts writes unpaired surrogates as U+FFFD, and
 * `weft_nonul` reads each `\u0000` escape as U+0001.
 */
const PG_PARSED: FieldLeaves = {
  ...PG_LEAVES,
  at: (doc, keys) => (doc === 'calls.summary' ? `NULLIF(p.sj #> '{${keys.join(',')}}', 'null'::jsonb)` : PG_LEAVES.at(doc, keys)),
};

/**
 * Each engine's part: the stream query's own status and latency SQL, the latency's bin (`weft_latency_bin`: SQLite's in
 * db/sql-functions.ts, PostgreSQL's in db/pg-migrations.ts, both over latency-histogram.ts's bounds), `json_each` of the usage.
 */
const ENGINES: Record<Dialect['engine'], OverviewEngine> = {
  sqlite: {
    from: '',
    status: derivedSql('summary.status', SQLITE_LEAVES),
    bin: `weft_latency_bin(${derivedSql('summary.latency_ms', SQLITE_LEAVES)})`,
    doc: 'calls.summary',
    usageEach: (doc) => `json_each(CASE WHEN json_type(${doc}, '$.usage') = 'object' THEN json_extract(${doc}, '$.usage') END) u`,
  },
  postgres: {
    // OFFSET 0: a subquery PostgreSQL keeps, so the parse runs once a row (pulled up, it would run at each read of sj)
    from: ' CROSS JOIN LATERAL (SELECT weft_nonul(calls.summary)::jsonb AS sj OFFSET 0) p',
    status: derivedSql('summary.status', PG_PARSED),
    bin: `weft_latency_bin(${derivedSql('summary.latency_ms', PG_PARSED)})`,
    doc: `p.sj -> 'usage'`,
    usageEach: (doc) => `LATERAL jsonb_each(CASE WHEN jsonb_typeof(${doc}) = 'object' THEN ${doc} END) u`,
  },
};

/** Groups beyond this many (by calls) are merged as `(other)`. */
export const MAX_GROUPS = 12;
export const OTHER = '(other)';
export const NONE = '(none)';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const iso = (ms: number): string => {
  const s = new Date(ms).toISOString();
  if (!ISO.test(s)) throw new RangeError(`overview: edge out of range: ${ms}`);
  return s;
};
/** The parameters of either statement: the project, start and end (ISO) of each range (of a slice: its keys). */
function paramsOf(q: RootsQuery): string[] {
  if (!q.slice) return q.ranges.flatMap(([a, b]) => [q.projectId, iso(a), iso(b)]);
  const [[a, b]] = q.ranges as [readonly [number, number]];
  const { after, through } = q.slice;
  return [q.projectId, after?.[0] ?? iso(a), through?.[0] ?? iso(b), ...(after ?? []), ...(through ?? [])];
}

/** The `ORDER BY` of key order ({@link RootKey}). */
export const KEY_ORDER = 'calls.started_at, calls.id DESC';

/**
 * The roots of a project in a range of `started_at` (`lo`, `hi`: `started_at` bounds), each bound narrowed to a key
 * ({@link RootKey}) when `after` / `through` hold one: one index range scan (`calls_parent`, or `calls_roots_desc`)
 * from bound to bound, so a slice reads its roots alone. Its parameters: the project, `lo`, `hi`, then the keys.
 */
export function rootsWhere(after: boolean, through: boolean): string {
  return `calls.project_id = ? AND calls.parent_id IS NULL AND calls.started_at >= ? AND calls.started_at ${through ? '<=' : '<'} ?${
    after ? ' AND NOT (calls.started_at = ? AND calls.id >= ?)' : ''}${through ? ' AND NOT (calls.started_at = ? AND calls.id < ?)' : ''}`;
}

/** The bucket of `column` (normalized ISO text) among `edges`, as a balanced CASE: log2(buckets) comparisons a row. */
export function bucketSql(column: string, edges: readonly number[]): string {
  const pick = (lo: number, hi: number): string => {
    // buckets lo..hi; bucket i starts at edges[i]
    if (lo === hi) return String(lo);
    const mid = (lo + hi + 1) >> 1;
    return `CASE WHEN ${column} < '${iso(edges[mid]!)}' THEN ${pick(lo, mid - 1)} ELSE ${pick(mid, hi)} END`;
  };
  return `(${pick(0, Math.max(0, edges.length - 2))})`;
}

/**
 * The roots of the ranges, with the columns `wanted` (of `b`, `op`, `st`, `k`, `doc`): one index range scan per
 * range (`calls_parent`: project, parent_id NULL, started_at), joined by UNION ALL.
 */
function rootsCte(e: OverviewEngine, q: RootsQuery, wanted: readonly string[], materialized: boolean): string {
  const columns: Record<string, string> = {
    b: bucketSql('calls.started_at', q.edges), op: 'calls.op_name', st: e.status, k: e.bin, doc: e.doc,
  };
  const one = `SELECT ${wanted.map((c) => `${columns[c]} AS ${c}`).join(', ')}
    FROM calls${e.from} WHERE ${rootsWhere(q.slice?.after != null, q.slice?.through != null)}`;
  return `r AS ${materialized ? 'MATERIALIZED ' : ''}(${q.ranges.map(() => one).join(' UNION ALL ')})`;
}

const COUNTS = `count(*) AS n, sum(CASE WHEN st = 'error' THEN 1 ELSE 0 END) AS e, sum(CASE WHEN st = 'descendant_error' THEN 1 ELSE 0 END) AS de`;

/**
 * The statement of the counts: per bucket, root op and latency bin; with `withModels`, also per model of the usage
 * (a root counts once per model of its usage, a root without usage as `(none)`). No rows without ranges.
 */
export function* rootFigures(d: Dialect, q: RootsQuery): Steps<RootFiguresRow[]> {
  if (q.ranges.length === 0) return [];
  const e = ENGINES[d.engine];
  const byOp = `SELECT b, op, NULL AS model, k, ${COUNTS} FROM r GROUP BY b, op, k`;
  const model = `COALESCE(u.key, '${NONE}')`;
  const byModel = `SELECT b, op, ${model} AS model, k, ${COUNTS} FROM r LEFT JOIN ${e.usageEach('r.doc')} ON true GROUP BY b, op, ${model}, k`;
  const wanted = q.withModels ? ['b', 'op', 'st', 'k', 'doc'] : ['b', 'op', 'st', 'k'];
  const sql = `WITH ${rootsCte(e, q, wanted, true)} ${byOp}${q.withModels ? ` UNION ALL ${byModel}` : ''}`;
  const rows = yield* all<RootFiguresRow>(sql, paramsOf(q));
  return rows.map((r) => ({ b: Number(r.b), op: r.op, model: r.model, k: r.k === null ? null : Number(r.k), n: Number(r.n), e: Number(r.e), de: Number(r.de) }));
}

/**
 * The statement of the usage: each model's token kinds summed per bucket and root op. SQLite sums with
 * `weft_usage_sum` (db/sql-functions.ts: each summary parsed once in JS), which took about 3/4 of the time of SQLite's
 * JSON functions reading each kind of token over 1,000,000 roots (one measurement, on a loaded machine).
 */
export function* rootUsage(d: Dialect, q: RootsQuery): Steps<OverviewUsageRow[]> {
  if (q.ranges.length === 0) return [];
  const e = ENGINES[d.engine];
  const roots = `WITH ${rootsCte(e, q, ['b', 'op', 'doc'], false)}`;
  if (d.engine === 'postgres') {
    const sums = USAGE_KEYS.map((k) => `sum(CASE WHEN jsonb_typeof(u.value -> '${k}') = 'number' THEN (u.value ->> '${k}')::float8 END) AS ${k}`);
    return yield* all<OverviewUsageRow>(`${roots} SELECT b, op, u.key AS model, ${sums.join(', ')}
      FROM r CROSS JOIN ${e.usageEach('r.doc')} GROUP BY b, op, u.key`, paramsOf(q));
  }
  const usage: OverviewUsageRow[] = [];
  type Sums = { b: number; op: string | null; usage: string | null };
  for (const row of yield* all<Sums>(`${roots} SELECT b, op, weft_usage_sum(doc) AS usage FROM r GROUP BY b, op`, paramsOf(q))) {
    const byModel = JSON.parse(row.usage ?? '{}') as Record<string, Record<string, number>>;
    for (const [model, sums] of Object.entries(byModel)) {
      usage.push({ b: row.b, op: row.op, model, ...Object.fromEntries(USAGE_KEYS.map((k) => [k, sums[k] ?? null])) } as OverviewUsageRow);
    }
  }
  return usage;
}
