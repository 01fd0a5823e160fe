/**
 * Tables endpoints: `POST /table/query` (spec endpoint 8) and `POST /table/create` (local server extension).
 * @module
 */
import { ENDPOINTS } from '../../schema/endpoints.js';
import { APIResource } from '../core/resource.js';
import { checkRequest } from '../../check-request.js';
import type { RequestOptions } from '../core/transport.js';
import { TableCreateReq, TableCreateRes, TableQueryReq, TableQueryRes } from '../../schema/tables.js';

/** Tables: rows stored under a content digest. */
export class TablesResource extends APIResource {
  /**
   * Stores rows as a table. An extension of weft's local server, not part of the service interface:
   * the hosted service may answer 404. Creating the same rows again returns the same digests.
   *
   * Row digest: sha256 of the row's canonical JSON (keys sorted at every depth, no whitespace), as base64url
   * with `-` → `X`, `_` → `Y` and no `=`. Table digest: the same over the canonical JSON of the array of
   * row digests, in order.
   * @example
   * const { digest, row_digests } = await client.tables.create({ project_id: 'acme/demo', rows: [{ q: 'hi', score: 1 }] });
   * @returns `{digest, row_digests}`, one row digest per row, in order.
   * @throws {RequestValidationError} (as a rejection) when `body` is invalid (e.g. a row that is not JSON), before sending.
   * @throws {APIError} (or a subclass) when the server answers an error.
   */
  async create(body: TableCreateReq, opts?: RequestOptions): Promise<TableCreateRes> {
    const req = checkRequest(TableCreateReq, body, 'table create request');
    return this.transport.post(ENDPOINTS.tableCreate, req, TableCreateRes, opts);
  }

  /**
   * Reads rows of the table with `digest`: optionally only `filter.row_digests`, sorted by `sort_by`
   * (dotted paths into each row's `val`, `asc` | `desc`; insertion order by default and for ties), then
   * `offset` rows skipped and at most `limit` returned (all when absent).
   * @example
   * const { rows } = await client.tables.query({ project_id: 'acme/demo', digest, sort_by: [{ field: 'score', order: 'desc' }], limit: 10 });
   * @returns `{rows: [{digest, val, original_index}]}`; `original_index` is the row's 0-based position in the table.
   * @throws {RequestValidationError} (as a rejection) when `body` is invalid, before sending.
   * @throws {NotFoundError} when the project holds no table with that digest (local server).
   * @throws {APIError} (or another subclass) when the server answers another error.
   * @see The interface spec, endpoint 8 "Query a table"
   */
  async query(body: TableQueryReq, opts?: RequestOptions): Promise<TableQueryRes> {
    const req = checkRequest(TableQueryReq, body, 'table query');
    return this.transport.post(ENDPOINTS.tableQuery, req, TableQueryRes, opts);
  }
}
