// Property tests of the zod-free upsert_batch check: it accepts only what zod accepts, with zod's exact output, and the server's 422 stays zod's.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallUpsertBatchReq } from 'weft-trace/schema';
import { PARSE_OPTIONS, issuesToDetail } from 'weft-trace/wire';
import type { RunningServer } from '../../../src/server/index.js';
import { fastParseUpsertBatch } from '../../../src/server/calls/write/upsert-batch-parse.js';
import { END_FIELDS, START_FIELDS } from '../../../src/server/calls/write/call-fields.js';
import { startTestServer } from 'weft-test-kit/server.js';
import { post } from 'weft-test-kit/server-http.js';

const PROTO_KEY = JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as unknown;
const json = fc.jsonValue({ maxDepth: 2 });
const text = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', 'svc:///e/p/object/x:1'));
const optText = fc.oneof(text, fc.constant(null));
const timestamp = fc.oneof(
  fc.date({ noInvalidDate: true, min: new Date(0), max: new Date('9999-12-31') }).map((d) => d.toISOString()),
  fc.constantFrom('2024-05-01T12:00:00+02:00', '2024-05-01T10:00:00.123456Z', '2024-02-29T23:59:59-05:30'),
);
const jsonObject = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 4 });
const num = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
const usage = fc.dictionary(fc.string({ maxLength: 6 }), fc.record({ total_tokens: num, requests: num, extra: json, prompt_tokens: num, completion_tokens: num }, { requiredKeys: [] }), { maxKeys: 3 });
const summary = fc.record({ extra: json, status_counts: fc.dictionary(fc.string({ maxLength: 6 }), num, { maxKeys: 3 }), usage }, { requiredKeys: [] });
const exception = fc.oneof(text, fc.constant(null), fc.record({ stack: text, extra: json, message: text, type: text }, { requiredKeys: ['message'] }));

/** Valid items (keys in any order, unknown keys included). */
const start = fc.record(
  {
    extra: json, project_id: fc.constant('e/p'), op_name: fc.constant('op'), started_at: timestamp, attributes: jsonObject, inputs: jsonObject,
    display_name: optText, id: optText, otel_dump: fc.oneof(jsonObject, fc.constant(null)), parent_id: optText, thread_id: optText,
    trace_id: optText, turn_id: optText, svc_run_id: optText, svc_user_id: optText, svc_run_step: fc.oneof(fc.integer(), fc.constant(null)),
  },
  { requiredKeys: ['project_id', 'op_name', 'started_at', 'attributes', 'inputs'] },
);
const end = fc.record(
  { summary, project_id: fc.constant('e/p'), id: fc.constant('a'), ended_at: timestamp, output: json, exception, extra: json },
  { requiredKeys: ['project_id', 'id', 'ended_at', 'summary'] },
);
const item = fc.oneof(start.map((s) => ({ mode: 'start', req: { start: s } })), end.map((e) => ({ mode: 'end', req: { end: e } })));

/** Places one wrong (or right) value may sit: every field of both item shapes, nested ones included. */
const PATHS = [
  ['mode'], ['req'], ['req', 'start'], ['req', 'end'], ['x'],
  ...Object.keys(START_FIELDS).map((k) => ['req', 'start', k]),
  ...Object.keys(END_FIELDS).map((k) => ['req', 'end', k]),
  ...['type', 'message', 'stack', 'x'].map((k) => ['req', 'end', 'exception', k]),
  ...['usage', 'status_counts', 'x'].map((k) => ['req', 'end', 'summary', k]),
  ['req', 'end', 'summary', 'usage', 'm'], ['req', 'end', 'summary', 'status_counts', 'success'],
  ...['prompt_tokens', 'completion_tokens', 'total_tokens', 'requests'].map((k) => ['req', 'end', 'summary', 'usage', 'm', k]),
];
const wrong = fc.oneof(json, fc.constantFrom(undefined, null, '', 1.5, 2 ** 60, 'soon', '2024-02-30T00:00:00Z', '2024-05-01T10:00:00', PROTO_KEY, [], {}));

/** Sets `value` at `path` inside `root` (a fresh JSON copy), creating objects on the way; `undefined` deletes. */
function mutate(root: unknown, path: string[], value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(root)) as Record<string, unknown>;
  let at = copy;
  for (const k of path.slice(0, -1)) {
    const next = at[k];
    at = typeof next === 'object' && next !== null ? (next as Record<string, unknown>) : (at[k] = {});
  }
  const last = path[path.length - 1] ?? '';
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

/** Bodies as the server sees them (what JSON.parse returns): valid batches, then some with one value changed. */
const batchBody = fc.array(item, { minLength: 1, maxLength: 3 }).map((batch) => ({ batch }));
const body = fc.oneof(
  batchBody,
  fc.tuple(batchBody, fc.nat(), fc.constantFrom(...PATHS), wrong).map(([b, i, path, v]) => mutate(b, ['batch', String(i % b.batch.length), ...path], v)),
  json,
).map((b) => JSON.parse(JSON.stringify(b)) as unknown);

describe('fastParseUpsertBatch', () => {
  it('accepts only bodies zod accepts, and returns exactly what zod returns (key order included)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(body, (data) => {
        const fast = fastParseUpsertBatch(data);
        const slow = CallUpsertBatchReq.safeParse(data);
        if (fast === undefined) return;
        accepted++;
        expect(slow.success).toBe(true);
        expect(fast).toEqual(slow.data);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(slow.data));
      }),
      { numRuns: 1000 },
    );
    expect(accepted).toBeGreaterThan(300);
  });

  it('takes the usual SDK batch itself (zod is not needed for it)', () => {
    const batch = [
      { mode: 'start', req: { start: { project_id: 'e/p', id: 'a', trace_id: 'a', op_name: 'add', started_at: '2024-05-01T10:00:00.000Z', inputs: { a: 1 }, attributes: {} } } },
      { mode: 'end', req: { end: { project_id: 'e/p', id: 'a', ended_at: '2024-05-01T10:00:01.000Z', output: 3, exception: { type: 'E', message: 'm', stack: 's' }, summary: { status_counts: { success: 1, error: 0 }, usage: { m: { requests: 1, total_tokens: 3 } } } } } },
    ];
    const fast = fastParseUpsertBatch({ batch });
    expect(fast).toEqual(CallUpsertBatchReq.parse({ batch }));
    expect(JSON.stringify(fast?.batch[1])).toContain('"summary":{"usage":{"m":{"total_tokens":3,"requests":1}},"status_counts"');
  });

  it('leaves objects holding an own __proto__ key to zod', () => {
    const s = { project_id: 'e/p', op_name: 'op', started_at: '2024-05-01T10:00:00Z', attributes: {}, inputs: PROTO_KEY };
    expect(fastParseUpsertBatch({ batch: [{ mode: 'start', req: { start: s } }] })).toBeUndefined();
  });
});

describe('POST /call/upsert_batch 422 detail', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("is zod's detail for any malformed body", async () => {
    const malformed = fc.sample(body.filter((b) => !CallUpsertBatchReq.safeParse(b).success), { numRuns: 40, seed: 7 });
    for (const data of malformed) {
      const res = await post(server, '/call/upsert_batch', JSON.stringify(data));
      expect(res.status).toBe(422);
      const expected = issuesToDetail(CallUpsertBatchReq.safeParse(data, PARSE_OPTIONS).error?.issues ?? [], ['body']);
      expect(await res.json()).toEqual(JSON.parse(JSON.stringify({ detail: expected })));
    }
  });
});
