/**
 * Object versions of one database (Weave SDK compatibility: obj/create, obj/read, objs/query); the only code that runs
 * SQL on `objects`, for both engines (`val` as SQLite text or PostgreSQL `json`, its text kept verbatim either way).
 * @module
 */
import type { z } from 'zod';
import type { ObjQueryReq, ObjReadReq, ObjSchema, ObjSchemaForInsert } from 'weft-trace/wire';
import { HttpError } from '../http/http-error.js';
import type { Dialect } from '../db/dialect.js';
import type { Out, SqlRunner, Wait } from '../db/sql-runner.js';
import { all, get, run, type Steps } from '../db/sql-steps.js';
import { objectDigest } from './object-digest.js';
import { type ObjectKey, readVals } from './object-vals.js';

/** A validated `obj` of `/obj/create`. */
export type ObjInput = z.output<typeof ObjSchemaForInsert>;
/** A validated `/objs/query` body. */
export type ObjQuery = z.output<typeof ObjQueryReq>;

/** The engines' SQL leaves: `size_bytes`, the bytes of the stored JSON text; `is_latest` as 1 / 0. */
const LEAVES = {
  sqlite: { size: 'length(CAST(val AS BLOB))', latest: (expr: string) => expr },
  postgres: { size: 'octet_length(val::text)', latest: (expr: string) => `(${expr})::int` },
} as const;

/** The selected columns of an object version on an engine. */
function columns(d: Dialect): string {
  const leaves = LEAVES[d.engine];
  return `project_id, object_id, digest, version_index, kind, base_object_class, leaf_object_class, created_at, wb_user_id,
  ${leaves.size} AS size_bytes,
  ${leaves.latest('version_index = (SELECT max(o2.version_index) FROM objects o2 WHERE o2.project_id = objects.project_id AND o2.object_id = objects.object_id)')} AS is_latest`;
}

/** Sort fields of `/objs/query` and their columns. */
const SORT_COLUMNS: Record<string, string> = { object_id: 'object_id', created_at: 'created_at', version_index: 'version_index', digest: 'digest' };

/** A selected object row: the columns, `is_latest` as 1 / 0, `val` as JSON text when selected. */
export interface ObjRow {
  project_id: string;
  object_id: string;
  digest: string;
  version_index: number;
  kind: 'op' | 'object';
  base_object_class: string | null;
  leaf_object_class: string | null;
  created_at: string;
  wb_user_id: string | null;
  size_bytes: number;
  is_latest: number;
  val?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `op` for an op's value (a `CustomWeaveType` of type `Op`, as the SDKs save ops), else `object`. */
export function objectKind(val: unknown): 'op' | 'object' {
  return isRecord(val) && val['_type'] === 'CustomWeaveType' && isRecord(val['weave_type']) && val['weave_type']['type'] === 'Op' ? 'op' : 'object';
}

/**
 * The classes of an object value as the Weave server files them: `leaf` is its `_class_name`; `base` is the
 * class just above `Object` in `_bases` (`["Dataset", "Object", "BaseModel"]` → `Dataset`), or the leaf itself
 * when `_bases` is `["Object", "BaseModel"]`; both null for values without them. `builtin` (the request's
 * `builtin_object_class`) wins when given.
 */
export function objectClasses(val: unknown, builtin?: string | null): { base: string | null; leaf: string | null } {
  const leaf = builtin ?? (isRecord(val) && typeof val['_class_name'] === 'string' ? val['_class_name'] : null);
  if (builtin) return { base: builtin, leaf };
  const bases = isRecord(val) && Array.isArray(val['_bases']) ? (val['_bases'] as unknown[]) : [];
  const objectAt = bases.lastIndexOf('Object');
  if (leaf === null || objectAt < 0) return { base: null, leaf };
  const above = objectAt > 0 ? bases[objectAt - 1] : leaf;
  return { base: typeof above === 'string' ? above : leaf, leaf };
}

/** The wire object of a selected row and its parsed value. */
export function toObj(row: ObjRow, val: unknown): ObjSchema {
  const { val: _text, wb_user_id, is_latest, ...rest } = row;
  return { ...rest, deleted_at: null, is_latest: is_latest ? 1 : 0, val, ...(wb_user_id ? { wb_user_id } : {}) };
}

/**
 * The ORDER BY terms of `/objs/query`: `sort_by` fields, then oldest first (`created_at`, `object_id`, `version_index`).
 * @throws HttpError 422 for a sort field outside {@link SORT_COLUMNS}.
 */
function objectOrder(q: ObjQuery): string[] {
  const order = (q.sort_by ?? []).map((s, i) => {
    const column = SORT_COLUMNS[s.field];
    if (!column) {
      throw HttpError.validation([{ loc: ['body', 'sort_by', String(i), 'field'], msg: `sort field must be one of ${Object.keys(SORT_COLUMNS).join(', ')}`, type: 'value_error' }]);
    }
    return `${column} ${s.order === 'desc' ? 'DESC' : 'ASC'}`;
  });
  order.push('created_at ASC', 'object_id ASC', 'version_index ASC');
  return order;
}

/**
 * Versions of a project matching the filter, sorted and paged.
 * @throws HttpError 422 for a sort field outside {@link SORT_COLUMNS}.
 */
function* queryObjects(d: Dialect, q: ObjQuery): Steps<ObjSchema[]> {
  const where = ['project_id = ?'];
  const params: unknown[] = [q.project_id];
  const f = q.filter ?? {};
  for (const [column, values] of [['object_id', f.object_ids], ['base_object_class', f.base_object_classes], ['leaf_object_class', f.leaf_object_classes]] as const) {
    if (!values) continue;
    where.push(d.inList(column));
    params.push(d.list(values));
  }
  if (f.is_op !== undefined && f.is_op !== null) where.push(f.is_op ? "kind = 'op'" : "kind = 'object'");
  if (f.latest_only) where.push(d.isSet('is_latest'));
  const order = objectOrder(q);
  params.push(q.limit ?? d.noLimit, q.offset ?? 0);
  const rows = yield* all<ObjRow>(`SELECT * FROM (SELECT ${columns(d)}${q.metadata_only ? '' : ', val'} FROM objects) o WHERE ${where.join(' AND ')}
    ORDER BY ${order.join(', ')} LIMIT ? OFFSET ?`, params);
  return rows.map((row) => toObj(row, row.val === undefined ? {} : (JSON.parse(row.val) as unknown)));
}

/**
 * Stores `val` as the next version of `object_id`, unless it has a version with this digest. On PostgreSQL, versions of
 * one object are numbered under a transaction-level advisory lock on (project, object), so concurrent creates through
 * several servers never lose a version.
 */
function* createObject(d: Dialect, obj: ObjInput, now: Date): Steps<{ digest: string }> {
  const digest = objectDigest(obj.val);
  const { base, leaf } = objectClasses(obj.val, obj.builtin_object_class);
  if (d.engine === 'postgres') yield* run('SELECT pg_advisory_xact_lock(hashtext(?), hashtext(?))', [obj.project_id, obj.object_id]);
  yield* run(`INSERT INTO objects (project_id, object_id, digest, version_index, kind, base_object_class, leaf_object_class, val, created_at, wb_user_id)
    SELECT ?, ?, ?, COALESCE(max(version_index) + 1, 0), ?, ?, ?, ${d.typed('?', 'json')}, ?, ?
    FROM objects WHERE project_id = ? AND object_id = ?
    ON CONFLICT DO NOTHING`, [obj.project_id, obj.object_id, digest, objectKind(obj.val), base, leaf, d.json(obj.val), now.toISOString(),
    obj.wb_user_id ?? null, obj.project_id, obj.object_id]);
  return { digest };
}

/**
 * {@link createObject}, only when the object's latest version is still `latest` (`null`: it has none yet), read under
 * the same lock (PostgreSQL) or in the same synchronous transaction (SQLite). @returns the version's digest and index,
 * or `undefined` (nothing written) when another version became latest meanwhile.
 */
function* createAfter(d: Dialect, obj: ObjInput, now: Date, latest: string | null): Steps<{ digest: string; version_index: number } | undefined> {
  if (d.engine === 'postgres') yield* run('SELECT pg_advisory_xact_lock(hashtext(?), hashtext(?))', [obj.project_id, obj.object_id]);
  const key = [obj.project_id, obj.object_id];
  const head = yield* get<{ digest: string }>('SELECT digest FROM objects WHERE project_id = ? AND object_id = ? ORDER BY version_index DESC LIMIT 1', key);
  if ((head?.digest ?? null) !== latest) return undefined;
  const { digest } = yield* createObject(d, obj, now);
  const row = yield* get<{ version_index: number }>('SELECT version_index FROM objects WHERE project_id = ? AND object_id = ? AND digest = ?', [...key, digest]);
  return { digest, version_index: Number(row!.version_index) };
}

/** One version: `digest` is a stored digest, `latest` or `v<N>`. @throws HttpError 404 when it does not exist. */
function* readObject(d: Dialect, req: z.output<typeof ObjReadReq>): Steps<ObjSchema> {
  const version = /^v(\d+)$/.exec(req.digest);
  const select = `SELECT ${columns(d)}, val FROM objects WHERE project_id = ? AND object_id = ?`;
  const args = [req.project_id, req.object_id];
  const row = yield* req.digest === 'latest'
    ? get<ObjRow>(`${select} ORDER BY version_index DESC LIMIT 1`, args)
    // the version as text: a number past 2^53 (or PostgreSQL's integer range) finds nothing instead of failing
    : version ? get<ObjRow>(`${select} AND version_index = ${d.typed('?', 'numeric')}`, [...args, version[1]!])
    : get<ObjRow>(`${select} AND digest = ?`, [...args, req.digest]);
  if (!row) throw new HttpError(404, `object ${JSON.stringify(`${req.object_id}:${req.digest}`)} not found in project ${JSON.stringify(req.project_id)}`);
  return toObj(row, JSON.parse(row.val!) as unknown);
}

/** Object versions of every project in one database (the `objects` table of SQLite migration 7 and of PostgreSQL's). */
export class ObjectStore<W extends Wait = Wait> {
  /** @param db - the engine's runner over a migrated database. */
  constructor(private readonly db: SqlRunner<W>) {}

  /**
   * Stores `val` as the next version of `object_id` (version_index 0, 1, ...), unless that object already
   * has a version with the same digest: creating is idempotent and answers the same digest.
   *
   * @param obj - a validated `obj` of `/obj/create`.
   * @param now - the server clock (`created_at`, ISO 8601 UTC).
   * @returns `{digest}`: see `objectDigest` (the Weave server's object digest).
   */
  create(obj: ObjInput, now: Date = new Date()): Out<W, { digest: string }> {
    return this.db.transaction(createObject, obj, now);
  }

  /**
   * Compare-and-set create: stores `obj.val` as {@link ObjectStore.create} does, but only while the object's latest
   * version is `latest` (its digest; `null` for an object with no version yet), so a read-modify-write of an object
   * (a dataset given more rows) never loses a version another writer made between its read and its write. A value
   * equal to an older version answers that version (no new one).
   * @returns the digest and `version_index` of the version, or `undefined` when the latest version is no longer `latest` (read again, retry).
   */
  createIfLatest(obj: ObjInput, now: Date, latest: string | null): Out<W, { digest: string; version_index: number } | undefined> {
    return this.db.transaction(createAfter, obj, now, latest);
  }

  /**
   * Reads one version: `digest` is a stored digest, `latest` (the highest version_index) or `v<N>`.
   * @throws HttpError 404 `{detail}` when the object or the version does not exist in the project.
   */
  read(req: z.output<typeof ObjReadReq>): Out<W, ObjSchema> {
    return this.db.run(readObject, req);
  }

  /**
   * Object versions of a project matching the filter (object ids, base and leaf classes, ops only or objects
   * only, latest versions only), sorted by `sort_by` (`object_id`, `created_at`, `version_index`, `digest`;
   * default oldest first), then `offset` and `limit`.
   *
   * @throws HttpError 422 for another sort field.
   */
  query(q: ObjQuery): Out<W, ObjSchema[]> {
    return this.db.run(queryObjects, q);
  }

  /** The values of the versions `keys` name in a project, by `<object_id>:<digest>` (absent when not stored); see object-vals.ts. */
  readVals(projectId: string, keys: readonly ObjectKey[]): Out<W, Map<string, unknown>> {
    return this.db.run(readVals, projectId, keys);
  }
}
