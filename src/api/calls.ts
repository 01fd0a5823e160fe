/**
 * Calls endpoints: `POST /call/start`, `POST /call/upsert_batch`, `POST /calls/stream_query`.
 * @module
 */
import { APIResource } from './resource.js';
import { checkRequest, type RequestOptions } from './transport.js';
import { JsonlStream } from './jsonl-stream.js';
import {
  CallRecord,
  CallStartReq,
  CallStartRes,
  CallUpsertBatchReq,
  CallUpsertBatchRes,
  CallsQueryReq,
} from '../schema/calls.js';

/** The call tracing endpoints (spec endpoints 3, 5 and 7). */
export class CallsResource extends APIResource {
  /**
   * Starts one call. The server generates `id` and `trace_id` when they are absent.
   * @returns `{id, trace_id}`
   * @throws {RequestValidationError} when `body` does not match the spec, before sending.
   * @throws {APIError} (or a subclass) when the server answers an error.
   * @see ../shared/spec/service-interface.md, endpoint 7 "Start a call"
   */
  start(body: CallStartReq, opts?: RequestOptions): Promise<CallStartRes> {
    const req = checkRequest(CallStartReq, body, 'call start request');
    return this.transport.post('/call/start', req, CallStartRes, opts);
  }

  /**
   * Sends start and end items in one request; the answer has one item per batch item, in order.
   * @returns `{res: [{id, trace_id} | {}]}`
   * @throws {RequestValidationError} when an item does not match the spec, before sending.
   * @throws {APIError} (or a subclass) when the server answers an error.
   * @see ../shared/spec/service-interface.md, endpoint 5 "Start calls in batch"
   */
  upsertBatch(body: CallUpsertBatchReq, opts?: RequestOptions): Promise<CallUpsertBatchRes> {
    const req = checkRequest(CallUpsertBatchReq, body, 'call upsert batch');
    return this.transport.post('/call/upsert_batch', req, CallUpsertBatchRes, opts);
  }

  /**
   * Queries calls as a stream of records parsed incrementally from JSONL (nothing is buffered
   * whole). The request is sent when iteration starts; the result can be iterated once, and
   * leaving the loop early aborts the request. Default order: `started_at` asc, then `id` asc.
   * @example
   * for await (const call of client.calls.streamQuery({ project_id: 'acme/demo', filter: { trace_roots_only: true } })) {
   *   console.log(call.op_name, call.summary?.status);
   * }
   * @throws {RequestValidationError} synchronously when `body` is invalid.
   * @throws {APIError} (or a subclass) from the iteration when the server answers an error.
   * @see ../shared/spec/service-interface.md, endpoint 3 "Stream-query calls"
   */
  streamQuery(body: CallsQueryReq, opts: RequestOptions = {}): JsonlStream<typeof CallRecord> {
    const req = checkRequest(CallsQueryReq, body, 'calls query');
    const open = (signal: AbortSignal) =>
      this.transport.stream('/calls/stream_query', req, 'application/jsonl', { ...opts, signal });
    return new JsonlStream(open, CallRecord, opts.signal);
  }
}
