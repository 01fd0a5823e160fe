/**
 * HTTP helpers of the server suites (test/server/): post JSON, build starts/ends, read stream_query answers.
 * @module
 */
import type { RunningServer } from 'weft-server';

export const PROJECT = 'acme/demo';

export type Json = Record<string, unknown>;

/** POSTs `body` (JSON-encoded unless a string) to the server. */
export function post(server: RunningServer, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Basic YXBpOmtleQ==', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A valid start with overrides. */
export function start(overrides: Json = {}): Json {
  return { project_id: PROJECT, op_name: 'op', started_at: '2024-05-01T10:00:00.000Z', attributes: {}, inputs: {}, ...overrides };
}

/** A valid end of call `id` with overrides. */
export function end(id: string, overrides: Json = {}): Json {
  return { project_id: PROJECT, id, ended_at: '2024-05-01T10:00:01.000Z', summary: {}, ...overrides };
}

export const startItem = (s: Json): Json => ({ mode: 'start', req: { start: s } });
export const endItem = (e: Json): Json => ({ mode: 'end', req: { end: e } });

/** POSTs a batch and returns the parsed `res`, failing on a non-200 answer. */
export async function batch(server: RunningServer, items: Json[]): Promise<Json[]> {
  const res = await post(server, '/call/upsert_batch', { batch: items });
  if (res.status !== 200) throw new Error(`upsert_batch answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { res: Json[] }).res;
}

/** Runs a stream query (JSONL) and returns the records, checking the framing line by line. */
export async function query(server: RunningServer, body: Json = {}): Promise<Json[]> {
  const res = await post(server, '/calls/stream_query', { project_id: PROJECT, ...body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`stream_query answered ${res.status}: ${text}`);
  if (text === '') return [];
  if (!text.endsWith('\n')) throw new Error('JSONL answer must end with a newline');
  return text.slice(0, -1).split('\n').map((line) => JSON.parse(line) as Json);
}

/** Ids of the records, in order. */
export const ids = (records: Json[]): unknown[] => records.map((r) => r['id']);
