/**
 * Calls endpoints: `POST /call/start`, `POST /call/upsert_batch`, `POST /calls/stream_query`.
 * @module
 */
import { ENDPOINTS } from '../../schema/endpoints.js';
import type { z } from 'zod';
import { APIResource } from '../core/resource.js';
import { checkRequest } from '../../check-request.js';
import type { RequestOptions } from '../core/transport.js';
import { JsonlStream } from '../core/jsonl-stream.js';
import { type IterateOptions, paginate } from './calls-pagination.js';
import {
  CallRecord,
  PartialCallRecord,
  CallStartReq,
  CallStartRes,
  CallUpsertBatchReq,
  CallUpsertBatchRes,
  CallsQueryReq,
} from '../../schema/calls.js';

/** The call tracing endpoints (spec endpoints 3, 5 and 7). */
export class CallsResource extends APIResource {
  /**
   * Starts one call. The server generates `id` and `trace_id` when they are absent.
   * @returns `{id, trace_id}`
   * @throws {RequestValidationError} (as a rejection) when `body` does not match the spec, before sending.
   * @throws {APIError} (or a subclass) when the server answers an error.
   * @see The interface spec, endpoint 7 "Start a call"
   */
  async start(body: CallStartReq, opts?: RequestOptions): Promise<CallStartRes> {
    const req = checkRequest(CallStartReq, body, 'call start request');
    return this.transport.post(ENDPOINTS.callStart, req, CallStartRes, opts);
  }

  /**
   * Sends start and end items in one request; the answer has one item per batch item, in order.
   * @returns `{res: [{id, trace_id} | {}]}`
   * @throws {RequestValidationError} (as a rejection) when an item does not match the spec, before sending.
   * @throws {APIError} (or a subclass) when the server answers an error.
   * @see The interface spec, endpoint 5 "Start calls in batch"
   */
  async upsertBatch(body: CallUpsertBatchReq, opts?: RequestOptions): Promise<CallUpsertBatchRes> {
    const req = checkRequest(CallUpsertBatchReq, body, 'call upsert batch');
    return this.transport.post(ENDPOINTS.callUpsertBatch, req, CallUpsertBatchRes, opts);
  }

  /**
   * Queries calls as a stream of records parsed incrementally from JSONL (nothing is buffered
   * whole). The request is sent when iteration starts; the result can be iterated once, and
   * leaving the loop early aborts the request. Default order: `started_at` asc, then `id` asc.
   *
   * Options beside `filter`/`query`/`sort_by`/`limit`/`offset` (spec endpoint 3): `columns` (records keep
   * those columns whole, plus `id`, `project_id`, `trace_id`, `op_name`, `started_at`, and with `summary` also
   * `ended_at`, `exception`, `display_name`; typed as {@link PartialCallRecord}), `expand_columns` (call and object
   * refs in those columns become call records and object values), `include_costs` (`summary.costs`, USD), `include_feedback`
   * (`summary.feedback`), `include_storage_size` / `include_total_storage_size` (`storage_size_bytes`,
   * `total_storage_size_bytes`), `include_usernames` (`svc_user_name`). Build `query` with `q`.
   * @example
   * for await (const call of client.calls.streamQuery({ project_id: 'acme/demo', filter: { trace_roots_only: true } })) {
   *   console.log(call.op_name, call.summary?.status);
   * }
   * @throws {RequestValidationError} synchronously when `body` is invalid.
   * @throws {APIError} (or a subclass) from the iteration when the server answers an error.
   * @see The interface spec, endpoint 3 "Stream-query calls"
   */
  streamQuery(body: CallsQueryReq & { columns: string[] }, opts?: RequestOptions): JsonlStream<typeof PartialCallRecord>;
  streamQuery(body: CallsQueryReq, opts?: RequestOptions): JsonlStream<typeof CallRecord>;
  streamQuery(body: CallsQueryReq, opts: RequestOptions = {}): JsonlStream<typeof CallRecord | typeof PartialCallRecord> {
    return this.open(checkRequest(CallsQueryReq, body, 'calls query'), opts);
  }

  /**
   * Iterates every call a query matches, page by page (`pageSize` records per request), each record
   * exactly once. Without `sort_by`, pages continue after the last record seen (`started_at`, `id`),
   * so calls written meanwhile never shift a page; with `sort_by`, pages use limit/offset and repeats
   * are skipped. `limit` caps the total, `offset` skips first. `break` aborts the current request.
   * @example
   * for await (const call of client.calls.iterate({ project_id: 'acme/demo', query: q.expr(q.eq(q.field('op_name'), 'answer')) }, { pageSize: 500 })) {}
   * @throws {RequestValidationError} synchronously when `body` is invalid.
   * @throws {ConfigError} from the iteration when `pageSize` is not an integer >= 1.
   * @throws {APIError} (or a subclass) from the iteration when the server answers an error.
   * @see The interface spec, endpoint 3 "Stream-query calls"
   */
  iterate(body: CallsQueryReq & { columns: string[] }, options?: IterateOptions & RequestOptions): AsyncGenerator<PartialCallRecord>;
  iterate(body: CallsQueryReq, options?: IterateOptions & RequestOptions): AsyncGenerator<CallRecord>;
  iterate(body: CallsQueryReq, options: IterateOptions & RequestOptions = {}): AsyncGenerator<PartialCallRecord> {
    const req = checkRequest(CallsQueryReq, body, 'calls query');
    const { pageSize, ...opts } = options;
    return paginate(req, (page) => this.open(checkRequest(CallsQueryReq, page, 'calls query page'), opts), { pageSize });
  }

  private open(req: z.output<typeof CallsQueryReq>, opts: RequestOptions): JsonlStream<typeof CallRecord | typeof PartialCallRecord> {
    const schema = req.columns ? PartialCallRecord : CallRecord;
    const open = (signal: AbortSignal) =>
      this.transport.stream(ENDPOINTS.callsStreamQuery, req, 'application/jsonl', { ...opts, signal });
    return new JsonlStream(open, schema, opts.signal);
  }
}
