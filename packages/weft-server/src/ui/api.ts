/**
 * The page's client of the server: `/calls/stream_query` (JSONL), `/feedback/stats`, `/weft/projects`, and the
 * API key the user typed (kept in sessionStorage, sent as `Authorization: Basic api:<key>`).
 * @module
 */
import { jsonlLineBatches } from 'weft-trace/viewer';
import type { CallStatus } from 'weft-trace/viewer';
import type { CallRecord as WireCallRecord } from 'weft-trace/viewer';
import { WEFT_PROJECTS_PATH } from 'weft-trace/viewer';

/** `summary` of a record as the server streams it: status and latency are always derived (see `StoredCallRecord`). */
export type Summary = NonNullable<WireCallRecord['summary']> & { status: CallStatus; latency_ms: number | null };

/** A call record as `/calls/stream_query` streams it (with `include_feedback` / `include_costs`): the schema's `CallRecord`. */
export type CallRecord = WireCallRecord & { summary: Summary };

/** A record's exception as the viewer shows it, or null: an exception sent as a plain string (the schema allows one) is its message. */
export function exceptionOf(call: Pick<CallRecord, 'exception'>): { type?: string; message?: string; stack?: string } | null {
  const e = call.exception;
  return e == null ? null : typeof e === 'string' ? { message: e } : e;
}

/** Raised when the server wants an API key (401) or refuses the one given. */
export class NeedsKeyError extends Error {}

const KEY_ITEM = 'weft.apiKey';

export function apiKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function setApiKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY_ITEM);
  else sessionStorage.setItem(KEY_ITEM, key);
}

function headers(): Record<string, string> {
  const key = apiKey();
  const h: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) h['authorization'] = `Basic ${btoa(`api:${key}`)}`;
  return h;
}

export async function request(path: string, body?: unknown, signal?: AbortSignal): Promise<Response> {
  // credentials 'omit': a 401 with `WWW-Authenticate: Basic` then comes back to the page instead of opening the
  // browser's own login dialog (Fetch standard, "HTTP-network-or-cache fetch", the 401 step); the key still
  // goes in the explicit Authorization header.
  const common: RequestInit = { headers: headers(), credentials: 'omit', ...(signal ? { signal } : {}) };
  const init: RequestInit = body === undefined ? common : { ...common, method: 'POST', body: JSON.stringify(body) };
  const res = await fetch(path, init);
  if (res.status === 401) throw new NeedsKeyError('this server requires an API key');
  if (!res.ok) {
    const text = await res.text();
    let detail = text;
    try {
      const parsed = JSON.parse(text) as { detail?: unknown };
      detail = typeof parsed.detail === 'string' ? parsed.detail : JSON.stringify(parsed.detail);
    } catch {
      // not JSON: keep the text
    }
    throw new Error(`${res.status}: ${detail}`);
  }
  return res;
}

/** Body of `/calls/stream_query` (spec endpoint 3). */
export interface StreamQuery {
  project_id: string;
  filter?: Record<string, unknown>;
  query?: { $expr: unknown };
  sort_by?: { field: string; direction: 'asc' | 'desc' }[];
  limit?: number;
  offset?: number;
  columns?: string[];
  include_feedback?: boolean;
  include_costs?: boolean;
}

/** Runs a stream query and collects its records (read as they arrive, see {@link streamRecordBatches}). */
export async function streamQuery(q: StreamQuery, signal?: AbortSignal): Promise<CallRecord[]> {
  const out: CallRecord[] = [];
  for await (const batch of streamRecordBatches(q, signal)) for (const record of batch) out.push(record);
  return out;
}

/**
 * Runs a stream query and yields its records as the response's bytes arrive: the records of the lines each chunk
 * completes, split by the client's JSONL reader (`jsonlLineBatches`, `src/api/core/jsonl-lines.ts`) and parsed by one
 * `JSON.parse` per chunk (the server's JSONL has one JSON value a line, never a newline inside one); blank lines are
 * skipped. Leaving the loop early cancels the response.
 * @throws NeedsKeyError on 401, Error with the status and the server's detail on another failure, SyntaxError for a
 *   line that is not JSON.
 */
export async function* streamRecordBatches(q: StreamQuery, signal?: AbortSignal): AsyncGenerator<CallRecord[]> {
  const res = await request('/calls/stream_query', q, signal);
  if (!res.body) return;
  const reader = res.body.getReader();
  try {
    for await (const lines of jsonlLineBatches(chunksOf(reader))) {
      const full = lines.filter((line) => line.trim() !== '');
      if (full.length > 0) yield JSON.parse(`[${full.join(',')}]`) as CallRecord[];
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}

async function* chunksOf(reader: ReadableStreamDefaultReader<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

/** `/feedback/stats` (spec endpoint 6). */
export async function feedbackStats(body: Record<string, unknown>): Promise<{ buckets?: Record<string, unknown>[]; window_stats?: Record<string, unknown>; granularity: number }> {
  const res = await request('/feedback/stats', body);
  return (await res.json()) as { buckets?: Record<string, unknown>[]; granularity: number };
}

/** The projects holding calls (`GET /weft/projects`, a weft extension). */
export async function listProjects(): Promise<string[]> {
  const res = await request(WEFT_PROJECTS_PATH);
  return ((await res.json()) as { projects: string[] }).projects;
}
