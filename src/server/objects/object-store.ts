/**
 * Object versions of one database (Weave SDK compatibility: obj/create, obj/read, objs/query); the only code that runs SQL on `objects`.
 * @module
 */
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import type { ObjQueryReq, ObjReadReq, ObjSchema, ObjSchemaForInsert } from '../../schema/objects.js';
import { HttpError } from '../http/http-error.js';
import { type StatementCache, statementCache } from '../db/statement-cache.js';
import { objectDigest } from './object-digest.js';
import { type Dialect, SQLITE_DIALECT } from '../db/dialect.js';
import { type ObjectKey, type ObjectValRow, objectValsParams, objectValsSql, valsByKey } from './object-vals.js';

/** A validated `obj` of `/obj/create`. */
export type ObjInput = z.output<typeof ObjSchemaForInsert>;
/** A validated `/objs/query` body. */
export type ObjQuery = z.output<typeof ObjQueryReq>;

const COLUMNS = `project_id, object_id, digest, version_index, kind, base_object_class, leaf_object_class, created_at, wb_user_id,
  length(CAST(val AS BLOB)) AS size_bytes,
  (version_index = (SELECT MAX(o2.version_index) FROM objects o2 WHERE o2.project_id = objects.project_id AND o2.object_id = objects.object_id)) AS is_latest`;

const INSERT_SQL = `INSERT INTO objects (project_id, object_id, digest, version_index, kind, base_object_class, leaf_object_class, val, created_at, wb_user_id)
  SELECT @project_id, @object_id, @digest, COALESCE(MAX(version_index) + 1, 0), @kind, @base_object_class, @leaf_object_class, @val, @created_at, @wb_user_id
  FROM objects WHERE project_id = @project_id AND object_id = @object_id
  ON CONFLICT DO NOTHING`;

/** Sort fields of `/objs/query` and their columns. */
const SORT_COLUMNS: Record<string, string> = { object_id: 'object_id', created_at: 'created_at', version_index: 'version_index', digest: 'digest' };

/** A selected object row (shared with the PostgreSQL store): the columns, `is_latest` as 1 / 0, `val` as JSON text when selected. */
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
 * The ORDER BY terms of `/objs/query` (both stores): `sort_by` fields, then oldest first (`created_at`, `object_id`, `version_index`).
 * @throws HttpError 422 for a sort field outside {@link SORT_COLUMNS}.
 */
export function objectOrder(q: ObjQuery): string[] {
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
 * The `/objs/query` statement, for either engine: versions of a project matching the filter, sorted and paged.
 * @param columns - the engine's selected columns (its `size_bytes` and `is_latest`).
 * @throws HttpError 422 for a sort field outside {@link SORT_COLUMNS}.
 */
export function objectQuery(q: ObjQuery, columns: string, d: Dialect): { sql: string; params: unknown[] } {
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
  const sql = `SELECT * FROM (SELECT ${columns}${q.metadata_only ? '' : ', val'} FROM objects) o WHERE ${where.join(' AND ')}
    ORDER BY ${order.join(', ')} LIMIT ? OFFSET ?`;
  return { sql: d.sql(sql), params };
}

/** Object versions of every project in one SQLite database (the `objects` table of migration 7). */
export class ObjectStore {
  private readonly statements: StatementCache;

  /** @param db - a read-write connection with migration 7 applied. */
  constructor(private readonly db: Database.Database) {
    this.statements = statementCache(db);
  }

  /**
   * Stores `val` as the next version of `object_id` (version_index 0, 1, ...), unless that object already
   * has a version with the same digest: creating is idempotent and answers the same digest.
   *
   * @param obj - a validated `obj` of `/obj/create`.
   * @param now - the server clock (`created_at`, ISO 8601 UTC).
   * @returns `{digest}`: see `objectDigest` (the Weave server's object digest).
   */
  create(obj: ObjInput, now: Date = new Date()): { digest: string } {
    const digest = objectDigest(obj.val);
    const { base, leaf } = objectClasses(obj.val, obj.builtin_object_class);
    this.statements.prepare(INSERT_SQL).run({
      project_id: obj.project_id, object_id: obj.object_id, digest, kind: objectKind(obj.val), base_object_class: base,
      leaf_object_class: leaf, val: JSON.stringify(obj.val), created_at: now.toISOString(), wb_user_id: obj.wb_user_id ?? null,
    });
    return { digest };
  }

  /**
   * Reads one version: `digest` is a stored digest, `latest` (the highest version_index) or `v<N>`.
   * @throws HttpError 404 `{detail}` when the object or the version does not exist in the project.
   */
  read(req: z.output<typeof ObjReadReq>): ObjSchema {
    const where = 'project_id = ? AND object_id = ?';
    const version = /^v(\d+)$/.exec(req.digest);
    let sql: string;
    let arg: string | number | undefined;
    if (req.digest === 'latest') sql = `SELECT ${COLUMNS}, val FROM objects WHERE ${where} ORDER BY version_index DESC LIMIT 1`;
    else if (version) [sql, arg] = [`SELECT ${COLUMNS}, val FROM objects WHERE ${where} AND version_index = ?`, Number(version[1])];
    else [sql, arg] = [`SELECT ${COLUMNS}, val FROM objects WHERE ${where} AND digest = ?`, req.digest];
    const args = arg === undefined ? [req.project_id, req.object_id] : [req.project_id, req.object_id, arg];
    const row = this.statements.prepare(sql).get(...args) as ObjRow | undefined;
    if (!row) throw new HttpError(404, `object ${JSON.stringify(`${req.object_id}:${req.digest}`)} not found in project ${JSON.stringify(req.project_id)}`);
    return toObj(row, JSON.parse(row.val!) as unknown);
  }

  /**
   * Object versions of a project matching the filter (object ids, base and leaf classes, ops only or objects
   * only, latest versions only), sorted by `sort_by` (`object_id`, `created_at`, `version_index`, `digest`;
   * default oldest first), then `offset` and `limit`.
   *
   * @throws HttpError 422 for another sort field.
   */
  query(q: ObjQuery): ObjSchema[] {
    const { sql, params } = objectQuery(q, COLUMNS, SQLITE_DIALECT);
    const rows = this.db.prepare(sql).all(...params) as ObjRow[];
    return rows.map((row) => toObj(row, row.val === undefined ? {} : (JSON.parse(row.val) as unknown)));
  }

  /** The values of the versions `keys` name in a project, by `<object_id>:<digest>` (absent when not stored); see object-vals.ts. */
  readVals(projectId: string, keys: readonly ObjectKey[]): Map<string, unknown> {
    return valsByKey(this.statements.prepare(objectValsSql(SQLITE_DIALECT)).all(...objectValsParams(SQLITE_DIALECT, projectId, keys)) as ObjectValRow[]);
  }
}
