/**
 * Routes of the call tracing endpoints: start, upsert_batch and stream_query (spec endpoints 7, 5 and 3), and the call
 * edits of the Weave SDKs (not in the interface spec): `POST /call/update` and `POST /calls/delete`.
 * @module
 */
import { ENDPOINTS } from 'weft-trace/wire';
import { Hono } from 'hono';
import { CallUpdateReq, CallsDeleteReq } from 'weft-trace/wire';
import { CallStartReq, CallUpsertBatchReq, CallsQueryReq } from 'weft-trace/wire';
import { WEAVE_ENDPOINTS } from 'weft-trace/wire';
import { parseJsonText, postJson, readJsonBody, readText, validateBody } from '../http/request-body.js';
import type { CallStore } from './call-store.js';
import { formatFromAccept, pageSize, recordStream } from './query/record-stream.js';
import { callTurns } from './call-turns.js';
import { fastParseUpsertBatch } from './write/upsert-batch-parse.js';

const CONTENT_TYPES = { jsonl: 'application/jsonl', json: 'application/json' } as const;

/**
 * Builds the call routes over the call store. The edits:
 *
 * - `POST /call/update` `{project_id, call_id, display_name}` → `{}`; a call whose start has not arrived yet
 *   gets the name when it does (the Weave SDK renames ended calls before their batch is sent).
 * - `POST /calls/delete` `{project_id, call_ids}` → `{}`: the calls and all their descendants are deleted;
 *   unknown ids are ignored.
 *
 * @param calls - where calls are written and read.
 * @param log - receives a line for mid-stream failures.
 */
export function callRoutes(calls: CallStore, log: (line: string) => void): Hono {
  const app = new Hono();
  /**
   * Batch writes and stream pages take turns, one per event-loop turn, in arrival order (issue 11, item 6); batches
   * queued back to back share a turn and one commit (issue 37); retention's delete batches take turns in the same queue.
   */
  const turns = callTurns(calls);

  postJson(app, ENDPOINTS.callStart, CallStartReq, (body) => calls.startCall(body.start));
  postJson(app, WEAVE_ENDPOINTS.callUpdate, CallUpdateReq, async (body) => {
    await calls.updateCall(body.project_id, body.call_id, body.display_name ?? null);
    return {};
  });
  postJson(app, WEAVE_ENDPOINTS.callsDelete, CallsDeleteReq, async (body) => {
    await calls.deleteCalls(body.project_id, body.call_ids);
    return {};
  });

  app.post(ENDPOINTS.callUpsertBatch, async (c) => {
    const text = await readText(c);
    const res = await turns.runGrouped(() => {
      const data = parseJsonText(text);
      const body = fastParseUpsertBatch(data) ?? validateBody(CallUpsertBatchReq, data);
      return calls.upsertBatch(body.batch);
    }, text.length);
    return c.json({ res });
  });

  app.post(ENDPOINTS.callsStreamQuery, async (c) => {
    const body = await readJsonBody(c, CallsQueryReq);
    const format = formatFromAccept(c.req.header('accept'));
    // the request's signal aborts when the client closes the connection before the answer ends
    const cursor = await calls.queryCalls(body, c.req.raw.signal);
    let first;
    try {
      first = await turns.run(() => cursor.next(pageSize(0)));
    } catch (err) {
      await cursor.close();
      throw err;
    }
    return new Response(recordStream(cursor, first, format, log, turns), {
      status: 200,
      headers: { 'content-type': CONTENT_TYPES[format], 'cache-control': 'no-store' },
    });
  });

  return app;
}
