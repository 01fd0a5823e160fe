// @weft-test: postgres
// Property tests of hostile request bodies (issue 11, items 1-4): random deep, oversized and control-character bodies on every endpoint answer 2xx or 4xx with a well-formed detail, never 5xx, in bounded time.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tooDeepAt } from 'weft-trace/wire';
import { LIMITS } from 'weft-trace/wire';
import { testStore } from 'weft-test-kit/test-store.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { PROJECT, end, endItem, post, start } from 'weft-test-kit/server-http.js';

const server = useTestServer();

/** A hostile value, as JSON text: nested up to 3 * maxJsonDepth, or a long list, around a small JSON leaf. */
const hostileValue = fc.oneof(
  fc.record({ depth: fc.integer({ min: 0, max: 3 * LIMITS.maxJsonDepth }), obj: fc.boolean(), leaf: fc.jsonValue({ maxDepth: 2 }) }).map(({ depth, obj, leaf }) =>
    obj ? '{"k":'.repeat(depth) + JSON.stringify(leaf) + '}'.repeat(depth) : '['.repeat(depth) + JSON.stringify(leaf) + ']'.repeat(depth),
  ),
  fc.record({ n: fc.integer({ min: 0, max: 150_000 }), item: fc.jsonValue({ maxDepth: 1 }) }).map(({ n, item }) => JSON.stringify(Array(n).fill(item))),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
);

/** A field path that may hold control characters (U+0000-U+001F, U+007F), dots and quotes. */
const hostilePath = fc.string({
  unit: fc.constantFrom('a', 'b', '.', '"', '[', ']', '0', ' ', '\u0000', '\u0001', '\n', '\u001f', '\u007f', 'é'),
  minLength: 0,
  maxLength: 12,
});

/** A list of `n` copies of `item`, as JSON text (n up to past every list maximum). */
const hostileList = fc.integer({ min: 0, max: 120_000 });

const DAY = '2024-01-01T00:00:00Z';
const quote = (s: string): string => JSON.stringify(s);

/** Bodies for every endpoint, each with the hostile part in a place that reaches the stores or SQL. */
const bodies = fc.oneof(
  hostileValue.map((v) => ['/call/start', JSON.stringify({ start: start({ inputs: { a: '@' } }) }).replace('"@"', v)] as const),
  hostileValue.map((v) => ['/call/start', JSON.stringify({ start: start({ inputs: '@' }) }).replace('"@"', v)] as const),
  hostileValue.map((v) => ['/call/upsert_batch', JSON.stringify({ batch: [endItem(end(randomUUID(), { output: '@' }))] }).replace('"@"', v)] as const),
  hostileValue.map((v) => ['/call/upsert_batch', `{"batch":${v}}`] as const),
  hostileValue.map((v) => ['/feedback/batch/create', `{"batch":[{"project_id":"${PROJECT}","svc_ref":"svc:///${PROJECT}/call/c1","feedback_type":"t","payload":{"a":${v}}}]}`] as const),
  hostileValue.map((v) => [`/v1/preview/models/${randomUUID()}/log`, `{"split":"train","trajectory_groups":[{"trajectories":[{"reward":1,"messages_and_choices":[${v}]}]}]}`] as const),
  hostileValue.map((v) => [`/v1/preview/models/${randomUUID()}/log`, `{"split":"train","trajectory_groups":${v}}`] as const),
  hostileValue.map((v) => ['/table/create', `{"project_id":"${PROJECT}","rows":[${v}]}`] as const),
  hostileValue.map((v) => ['/calls/stream_query', `{"project_id":"${PROJECT}","query":{"$expr":{"$eq":[{"$getField":"inputs.a"},{"$literal":${v}}]}}}`] as const),
  hostileValue.map((v) => ['/calls/stream_query', `{"project_id":"${PROJECT}","query":{"$expr":${v}}}`] as const),
  hostilePath.map((p) => ['/calls/stream_query', `{"project_id":"${PROJECT}","sort_by":[{"field":${quote(p)}}],"columns":[${quote(p)}]}`] as const),
  hostilePath.map((p) => ['/calls/stream_query', `{"project_id":"${PROJECT}","query":{"$expr":{"$eq":[{"$getField":${quote(p)}},{"$literal":1}]}}}`] as const),
  hostilePath.map((p) => ['/feedback/stats', `{"project_id":"${PROJECT}","start":"${DAY}","metrics":[{"json_path":${quote(p)},"percentiles":[50]}]}`] as const),
  hostilePath.map((p) => ['/table/query', `{"project_id":"${PROJECT}","digest":"d","sort_by":[{"field":${quote(p)}}]}`] as const),
  hostileList.map((n) => ['/calls/stream_query', JSON.stringify({ project_id: PROJECT, query: { $expr: { $in: [{ $getField: 'op_name' }, Array(n).fill({ $literal: 'x' })] } } })] as const),
  hostileList.map((n) => ['/calls/stream_query', JSON.stringify({ project_id: PROJECT, query: { $expr: { $or: Array(n).fill({ $literal: false }) } } })] as const),
  hostileList.map((n) => ['/calls/stream_query', JSON.stringify({ project_id: PROJECT, sort_by: Array(n).fill({ field: 'inputs.a' }), expand_columns: Array(n).fill('inputs.a') })] as const),
  hostileList.map((n) => ['/feedback/stats', JSON.stringify({ project_id: PROJECT, start: DAY, metrics: Array.from({ length: Math.min(n, 20_000) }, (_, i) => ({ json_path: `m${i}`, percentiles: [50] })) })] as const),
);


interface Detail {
  loc: unknown;
  msg: unknown;
  type: unknown;
}

describe('hostile bodies on every endpoint', () => {
  it('answer 2xx or 4xx with a well-formed, bounded detail, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, async ([path, body]) => {
        const res = await post(server(), path, body);
        const text = await res.text();
        expect(res.status, `${path} ${text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status >= 400) {
          const detail = (JSON.parse(text) as { detail: unknown }).detail;
          if (res.status === 422) {
            expect(Array.isArray(detail)).toBe(true);
            const items = detail as Detail[];
            expect(items.length).toBeGreaterThan(0);
            expect(items.length).toBeLessThanOrEqual(LIMITS.maxIssues + 1);
            for (const d of items) {
              expect(Array.isArray(d.loc) && (d.loc as unknown[]).every((p) => typeof p === 'string')).toBe(true);
              expect(typeof d.msg).toBe('string');
              expect(typeof d.type).toBe('string');
            }
          } else {
            expect(typeof detail, text.slice(0, 300)).toBe('string');
          }
        }
      }),
      { numRuns: 80 },
    );
  }, testStore() === 'postgres' ? 600_000 : 120_000);
});

/** The depth of a JSON value, recursively (the reference; only for small values). */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(v).map(depthOf));
}

describe('tooDeepAt', () => {
  it('agrees with a recursive depth, and its path leads to a container at depth max + 1', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 1, max: 8 }), (v, max) => {
        const at = tooDeepAt(v, max);
        expect(at !== undefined).toBe(depthOf(v) > max);
        if (at) {
          expect(at).toHaveLength(max);
          const node = at.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], v);
          expect(node !== null && typeof node === 'object').toBe(true);
        }
      }),
    );
  });
});
