/**
 * Object versions of one PostgreSQL database (Weave SDK compatibility: obj/create, obj/read, objs/query), with the
 * answers of the SQLite `ObjectStore`; the only code that runs SQL on `objects` there.
 * @module
 */
import type { z } from 'zod';
import type { ObjReadReq, ObjSchema } from '../../schema/objects.js';
import { HttpError } from '../http/http-error.js';
import { type PgDatabase, pgRows } from '../db/pg-database.js';
import { pgJsonText } from '../db/pg-json.js';
import { objectDigest } from './object-digest.js';
import { type ObjInput, type ObjQuery, type ObjRow, objectClasses, objectKind, objectQuery, toObj } from './object-store.js';
import { PG_DIALECT } from '../db/dialect.js';
import { type ObjectKey, type ObjectValRow, objectValsParams, objectValsSql, valsByKey } from './object-vals.js';

/** `size_bytes`: bytes of the stored JSON text (`val` is `json`, kept verbatim), as SQLite's `length(CAST(val AS BLOB))`. */
const COLUMNS = `project_id, object_id, digest, version_index, kind, base_object_class, leaf_object_class, created_at, wb_user_id,
  octet_length(val::text) AS size_bytes,
  (version_index = (SELECT max(o2.version_index) FROM objects o2 WHERE o2.project_id = objects.project_id AND o2.object_id = objects.object_id))::int AS is_latest`;

/**
 * The next version of an object, unless it has one with this digest. The caller holds the object's advisory lock,
 * so two servers creating versions of one object at once number them one after the other.
 */
const INSERT_SQL = `INSERT INTO objects (project_id, object_id, digest, version_index, kind, base_object_class, leaf_object_class, val, created_at, wb_user_id)
  SELECT $1, $2, $3, COALESCE(max(version_index) + 1, 0), $4, $5, $6, $7::json, $8, $9
  FROM objects WHERE project_id = $1 AND object_id = $2
  ON CONFLICT DO NOTHING`;

/** Object versions of every project in one PostgreSQL database (`objects`, `val` as `json`). */
export class PgObjectStore {
  /** @param db - the migrated database. */
  constructor(private readonly db: PgDatabase) {}

  /**
   * Stores `val` as the next version of `object_id`, unless that object already has a version with the same
   * digest; the contract of `ObjectStore.create`. Versions of one object are numbered under a transaction-level
   * advisory lock on (project, object), so concurrent creates through several servers never lose a version.
   *
   * @returns `{digest}`: the Weave server's object digest.
   */
  async create(obj: ObjInput, now: Date = new Date()): Promise<{ digest: string }> {
    const digest = objectDigest(obj.val);
    const { base, leaf } = objectClasses(obj.val, obj.builtin_object_class);
    await this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [obj.project_id, obj.object_id]);
      await tx.query(INSERT_SQL, [
        obj.project_id, obj.object_id, digest, objectKind(obj.val), base, leaf, pgJsonText(obj.val), now.toISOString(), obj.wb_user_id ?? null,
      ]);
    });
    return { digest };
  }

  /**
   * Reads one version: `digest` is a stored digest, `latest` or `v<N>`; the contract of `ObjectStore.read`.
   * @throws HttpError 404 `{detail}` when the object or the version does not exist in the project.
   */
  async read(req: z.output<typeof ObjReadReq>): Promise<ObjSchema> {
    const where = 'project_id = $1 AND object_id = $2';
    const version = /^v(\d+)$/.exec(req.digest);
    let sql: string;
    let arg: string | number | undefined;
    if (req.digest === 'latest') sql = `SELECT ${COLUMNS}, val FROM objects WHERE ${where} ORDER BY version_index DESC LIMIT 1`;
    else if (version) [sql, arg] = [`SELECT ${COLUMNS}, val FROM objects WHERE ${where} AND version_index = $3::numeric`, version[1]!];
    else [sql, arg] = [`SELECT ${COLUMNS}, val FROM objects WHERE ${where} AND digest = $3`, req.digest];
    const args = arg === undefined ? [req.project_id, req.object_id] : [req.project_id, req.object_id, arg];
    const [row] = await pgRows<ObjRow>(this.db.pool, sql, args);
    if (!row) throw new HttpError(404, `object ${JSON.stringify(`${req.object_id}:${req.digest}`)} not found in project ${JSON.stringify(req.project_id)}`);
    return toObj(row, JSON.parse(row.val!) as unknown);
  }

  /**
   * Object versions of a project matching the filter, sorted and paged; the contract of `ObjectStore.query`.
   * @throws HttpError 422 for an unknown sort field.
   */
  async query(q: ObjQuery): Promise<ObjSchema[]> {
    const { sql, params } = objectQuery(q, COLUMNS, PG_DIALECT);
    const rows = await pgRows<ObjRow>(this.db.pool, sql, params);
    return rows.map((row) => toObj(row, row.val === undefined ? {} : (JSON.parse(row.val) as unknown)));
  }

  /** The values of the versions `keys` name in a project; the contract of `ObjectStore.readVals`. */
  async readVals(projectId: string, keys: readonly ObjectKey[]): Promise<Map<string, unknown>> {
    return valsByKey(await pgRows<ObjectValRow>(this.db.pool, objectValsSql(PG_DIALECT), objectValsParams(PG_DIALECT, projectId, keys)));
  }
}
