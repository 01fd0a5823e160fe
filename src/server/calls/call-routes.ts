/**
 * Routes of the call tracing endpoints: start, upsert_batch and stream_query (spec endpoints 7, 5 and 3).
 * @module
 */
import { ENDPOINTS } from '../../schema/endpoints.js';
import { Hono } from 'hono';
import { CallStartReq, CallUpsertBatchReq, CallsQueryReq } from '../../schema/calls.js';
import { readJson, readJsonBody, validateBody } from '../http/request-body.js';
import type { CallStore } from './call-store.js';
import { formatFromAccept, pageSize, recordStream } from './record-stream.js';
import { fastParseUpsertBatch } from './upsert-batch-parse.js';

const CONTENT_TYPES = { jsonl: 'application/jsonl', json: 'application/json' } as const;

/**
 * Builds the call routes over the call store.
 *
 * @param calls - where calls are written and read.
 * @param log - receives a line for mid-stream failures.
 */
export function callRoutes(calls: CallStore, log: (line: string) => void): Hono {
  const app = new Hono();

  app.post(ENDPOINTS.callStart, async (c) => {
    const body = await readJsonBody(c, CallStartReq);
    return c.json(calls.startCall(body.start));
  });

  app.post(ENDPOINTS.callUpsertBatch, async (c) => {
    const data = await readJson(c);
    const body = fastParseUpsertBatch(data) ?? validateBody(CallUpsertBatchReq, data);
    return c.json({ res: calls.upsertBatch(body.batch) });
  });

  app.post(ENDPOINTS.callsStreamQuery, async (c) => {
    const body = await readJsonBody(c, CallsQueryReq);
    const format = formatFromAccept(c.req.header('accept'));
    const cursor = calls.queryCalls(body);
    let first;
    try {
      first = cursor.next(pageSize(0));
    } catch (err) {
      cursor.close();
      throw err;
    }
    return new Response(recordStream(cursor, first, format, log), {
      status: 200,
      headers: { 'content-type': CONTENT_TYPES[format], 'cache-control': 'no-store' },
    });
  });

  return app;
}
