/**
 * Routes of tables: `POST /table/query` (spec endpoint 8) and `POST /table/create` (local extension).
 * @module
 */
import { ENDPOINTS } from 'weft-trace/wire';
import { Hono } from 'hono';
import { TableQueryReq } from 'weft-trace/wire';
import { postJson, readJson } from '../http/request-body.js';
import { tableCreateBody } from './table-create-body.js';
import type { TableStore } from './table-store.js';

/**
 * Builds the table routes over the table store.
 *
 * - `POST /table/create` `{project_id, rows}` → `{digest, row_digests}`: an extension of this server (the spec
 *   has no way to create a table); idempotent. The Weave SDK's shape `{table: {project_id, rows}}` (a body with a
 *   `table` key) is taken too and answered the same. More than `LIMITS.maxTableRows` rows: 413 `{detail}`.
 * - `POST /table/query` → `{rows: [{digest, val, original_index}]}`; `rows: []` for an unknown table (as Weave).
 *
 * @param tables - where tables are written and read.
 */
export function tableRoutes(tables: TableStore): Hono {
  const app = new Hono();
  app.post(ENDPOINTS.tableCreate, async (c) => {
    const body = tableCreateBody(await readJson(c));
    return c.json(await tables.create(body.project_id, body.rows));
  });
  postJson(app, ENDPOINTS.tableQuery, TableQueryReq, async (body) => ({ rows: await tables.query(body) }));
  return app;
}
