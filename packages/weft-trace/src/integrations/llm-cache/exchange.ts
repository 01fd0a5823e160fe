/**
 * A provider's HTTP response as a cassette stores it, and back: JSON parsed, an event stream split into its events (replayed one per chunk, in order).
 * @module
 */
import type { RecordedResponse } from './cassette.js';

/** The response headers SDKs read that are kept: the body's type and the provider's request id. */
const KEPT_HEADERS = ['content-type', 'x-request-id', 'request-id'];

const encoder = new TextEncoder();

function keptHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const v = headers.get(name);
    if (v !== null) out[name] = v;
  }
  return out;
}

function isEventStream(headers: Headers | Record<string, string>): boolean {
  const type = headers instanceof Headers ? headers.get('content-type') : headers['content-type'];
  return (type ?? '').includes('text/event-stream');
}

/** The events of an SSE body: the text between blank lines, line endings as `\n`. */
function splitEvents(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n\n')
    .filter((e) => e.trim() !== '');
}

/** A status worth storing: not one a retry may change (408, 409, 429, 5xx). */
export function recordable(status: number): boolean {
  return status < 500 && status !== 408 && status !== 409 && status !== 429;
}

/**
 * Hands the caller `res` as it arrives (an event stream chunk by chunk) and calls `store` with its recorded form
 * once the body has been read to its end (a body left unread or cut is not stored).
 */
export async function recordResponse(res: Response, store: (recorded: RecordedResponse) => void): Promise<Response> {
  const init = { status: res.status, statusText: res.statusText, headers: res.headers };
  const headers = keptHeaders(res.headers);
  if (res.body === null) {
    store({ status: res.status, headers });
    return res;
  }
  if (!isEventStream(res.headers)) {
    const text = await res.text();
    let json: unknown;
    let parsed = false;
    try {
      json = JSON.parse(text);
      parsed = true;
    } catch {
      // not JSON: kept as text
    }
    store(parsed ? { status: res.status, headers, json } : { status: res.status, headers, text });
    return new Response(text, init);
  }
  const decoder = new TextDecoder();
  let text = '';
  const tap = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      text += decoder.decode(chunk, { stream: true });
      controller.enqueue(chunk);
    },
    flush() {
      text += decoder.decode();
      store({ status: res.status, headers, events: splitEvents(text) });
    },
  });
  return new Response(res.body.pipeThrough(tap), init);
}

/** The recorded response as a `Response`: an event stream yields one event per chunk, in the recorded order. */
export function replayResponse(r: RecordedResponse): Response {
  const init = { status: r.status, headers: r.headers };
  if (r.events !== undefined) {
    const events = r.events;
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < events.length) controller.enqueue(encoder.encode(`${events[i++]}\n\n`));
        else controller.close();
      },
    });
    return new Response(body, init);
  }
  if (r.json !== undefined) return new Response(JSON.stringify(r.json), init);
  return new Response(r.text ?? null, init);
}
