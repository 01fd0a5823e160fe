/**
 * The options of `init()`: generated from src/init-option-table.ts by `npm run docs:options` (do not edit here).
 * @module
 */

/**
 * Options of `init()`. Each falls back to its env var (when it has one), then to its default; a malformed
 * one makes `init()` throw a `ConfigError` naming it, what was expected and what was received.
 */
export interface InitOptions {
  /**
   * `<entity>/<project>` the calls are recorded in.
   *
   * Env: `WEFT_PROJECT`.
   * @defaultValue none (required)
   */
  project?: string;
  /**
   * The service, an http(s) URL: a local `weft serve` by default, or the hosted service.
   *
   * Env: `WEFT_BASE_URL`.
   * @defaultValue `'http://127.0.0.1:6345'`
   */
  baseUrl?: string;
  /**
   * API key, sent as Basic `api:<key>` on the core endpoints and as Bearer on `/v1/preview/*`.
   *
   * Env: `WEFT_API_KEY`.
   * @defaultValue none (no Authorization header)
   */
  apiKey?: string;
  /**
   * Record calls at all; when `false`, ops run untraced and nothing is sent.
   *
   * Env: `WEFT_DISABLED` (`1`, `true`, `yes` or `on` turns tracing off, whatever the option says).
   * @defaultValue `true`
   */
  enabled?: boolean;
  /**
   * `svc_user_id` stamped on every call and feedback item.
   *
   * Env: `WEFT_USER_ID`.
   * @defaultValue none
   */
  userId?: string;
  /**
   * A batch is sent as soon as this many events wait.
   *
   * Unit: events. Range: min 1. Env: `WEFT_MAX_BATCH_ITEMS`.
   * @defaultValue `500`
   */
  maxBatchItems?: number;
  /**
   * A batch is also cut before its request body would pass this size. A call event larger than that is sent
   * with its `inputs` and `attributes` (start) or `output` (end) replaced by
   * `{"_weft_truncated": {"original_bytes", "limit_bytes"}}` and an exception's message and stack shortened;
   * one still too large, or a feedback item too large, is dropped as `oversize`. A batch the server refuses
   * as too large (413) is sent in halves.
   *
   * Unit: bytes. Range: min 1024. Env: `WEFT_MAX_BATCH_BYTES`.
   * @defaultValue `4194304` (4 MiB)
   */
  maxBatchBytes?: number;
  /**
   * Longest wait, from the first of them, before waiting events are sent; the timer never keeps the process
   * alive.
   *
   * Unit: ms. Range: min 1. Env: `WEFT_FLUSH_INTERVAL_MS`.
   * @defaultValue `1000`
   */
  flushIntervalMs?: number;
  /**
   * Export requests in flight at once, per queue (call events and feedback items each have one).
   *
   * Unit: requests. Range: min 1.
   * @defaultValue `2`
   */
  maxConcurrentRequests?: number;
  /**
   * Events held in memory (waiting or being sent); beyond it new events go to the spool, or are dropped,
   * counted and warned about. The last 10% are kept for end events of calls already started. A call is two
   * events.
   *
   * Unit: events. Range: min 1.
   * @defaultValue `1000000`
   */
  maxQueueItems?: number;
  /**
   * The same cap as `maxQueueItems`, in serialized bytes of the events held in memory. The default is 1/8 of
   * the memory the process may use (its cgroup limit or the machine's memory, whichever is less) between 64
   * MiB and 256 MiB: 256 MiB from 2 GiB up, 64 MiB where the memory cannot be read (Vercel Edge, workerd).
   * So a burst that outruns the server for a moment (200,000 small calls hold about 90 MB) waits in memory;
   * the disk spool is for a server that is down or refusing.
   *
   * Unit: bytes. Range: min 1024.
   * @defaultValue `268435456` (256 MiB)
   */
  maxQueueBytes?: number;
  /**
   * Retries per export request after a connection error, 408, 409, 429 or 5xx; `retryBudgetMs` usually ends
   * them first. The `Client` that `init()` returns keeps its own `maxRetries`.
   *
   * Unit: retries. Range: min 0.
   * @defaultValue `20`
   */
  maxRetries?: number;
  /**
   * Backoff ceiling of an export request's first retry; it doubles per retry, with full jitter (a random
   * wait between 0 and the ceiling).
   *
   * Unit: ms. Range: min 0.
   * @defaultValue `500`
   */
  retryInitialDelayMs?: number;
  /**
   * Largest backoff ceiling, and the wait before a failed spool replay is tried again. A `retry-after-ms` or
   * `Retry-After` (seconds or an HTTP date) from the server wins over the backoff, however long; a wait that
   * would end past `retryBudgetMs` is not made.
   *
   * Unit: ms. Range: min 0.
   * @defaultValue `8000`
   */
  retryMaxDelayMs?: number;
  /**
   * Time an export batch may spend on retries, from its first attempt; then it goes to the spool, or is
   * dropped as `unreachable` without one.
   *
   * Unit: ms. Range: min 0. Env: `WEFT_RETRY_BUDGET_MS`.
   * @defaultValue `30000`
   */
  retryBudgetMs?: number;
  /**
   * Directory of the disk spool: call events that memory cannot hold, batches still unsent after the retry
   * budget, and what is unsent at exit are appended there (JSONL segment files) and replayed in order once
   * the server answers, by this process, the next one using the same directory, or `weft spool flush`. By
   * default a directory under the OS temp directory keyed by `baseUrl` and `project`, created (mode 0700)
   * only when something is written; `false` turns the spool off (such events are then dropped). Off where
   * the runtime has no `node:fs` (Vercel Edge), said once. Feedback is never spooled.
   *
   * Env: `WEFT_SPOOL_DIR` (`off` (or `false`, `0`, `no`) turns it off).
   * @defaultValue none (so one computed per `baseUrl` and `project`: `<tmpdir>/weft-spool-<uid>/<host>_<port>-<entity>_<project>-<hash>`)
   */
  spoolDir?: string | false;
  /**
   * Size cap of the spool directory; beyond it new events are dropped as `spool_full`.
   *
   * Unit: bytes. Range: min 1024. Env: `WEFT_SPOOL_MAX_BYTES`.
   * @defaultValue `67108864` (64 MiB)
   */
  spoolMaxBytes?: number;
  /**
   * Longest wait for unsent events when the process is about to exit (`beforeExit`, or a signal with
   * `handleSignals`), e.g. for a server that is restarting; then requests in flight are aborted and their
   * events spooled (or dropped with the spool off), one line saying where, so the process can exit. Not
   * waited for when no connection to `baseUrl` was ever answered, by this process or (a marker in the spool
   * directory says so) an earlier one: then the events are spooled at once.
   *
   * Unit: ms. Range: min 0. Env: `WEFT_EXIT_TIMEOUT_MS`.
   * @defaultValue `10000`
   */
  exitTimeoutMs?: number;
  /**
   * When the exit spooled its events at once because no connection to `baseUrl` was ever answered, start a
   * short-lived detached process (the spool courier, `dist/spool-courier.js`) that keeps sending that spool
   * until it is empty or `exitTimeoutMs` after the exit, then exits; the app itself exits as before. So a
   * server that comes up within `exitTimeoutMs` gets every event, and a missing one costs no wait. At most
   * one per spool; none where the SDK is bundled into the app or the runtime cannot start processes. What it
   * could not send stays in the spool.
   *
   * Env: `WEFT_SPOOL_COURIER` (`off` (or `false`, `0`, `no`) turns it off).
   * @defaultValue `true`
   */
  spoolCourier?: boolean;
  /**
   * Print the trace viewer's link to the first trace of the process on standard error (once per process),
   * when `baseUrl` is a `weft serve` (its `GET /server_info` says so); other services print nothing.
   *
   * Env: `WEFT_PRINT_VIEWER_LINK` (`1`, `true`, `yes` or `on` for true).
   * @defaultValue `true`
   */
  printViewerLink?: boolean;
  /**
   * On SIGTERM and SIGINT, flush (within `exitTimeoutMs`), then re-raise the signal so it ends the process
   * as it would have; if the program has its own listener for that signal, weft only flushes and leaves the
   * rest to it.
   *
   * Env: `WEFT_HANDLE_SIGNALS` (`1`, `true`, `yes` or `on` for true).
   * @defaultValue `false`
   */
  handleSignals?: boolean;
  /**
   * `'immediate'` also sends a trace's events as soon as its root call ends (serverless); `'batch'` waits
   * for a full batch or `flushIntervalMs`.
   *
   * Env: `WEFT_FLUSH_MODE`.
   * @defaultValue `'batch'`
   */
  flushMode?: 'batch' | 'immediate';
  /**
   * Handed the flush promise each time a root call ends, e.g. Vercel's `waitUntil` (from
   * `@vercel/functions`) or Cloudflare's `ctx.waitUntil.bind(ctx)`, so the platform keeps the function alive
   * until its events are sent; the promise never rejects.
   * @defaultValue none
   */
  waitUntil?: (promise: Promise<unknown>) => void;
  /**
   * Fraction of traces recorded, decided once per trace at its root call; children follow their root (a
   * trace left out records nothing at any depth).
   *
   * Range: 0 to 1. Env: `WEFT_SAMPLE_RATE`.
   * @defaultValue `1`
   */
  sampleRate?: number;
  /**
   * Which traces are sent, each whole or not at all: `rate` (0 to 1, default 1), decided from the trace id
   * so every process of a trace agrees; and tail rules that keep a trace the rate leaves out, decided when
   * its last open call in this process ends: `keepErrors` (a call failed; default true), `keepSlowerThanMs`
   * (a call took longer), `keepAttributes` (a call carries one of these attribute keys). Calls held for a
   * decision are bounded by `maxHeldCalls` (default 10000): the trace that goes over is sent at once. Counts
   * in `getExportStats().sampling`, said once at exit. Unset: every trace is sent and nothing is held (see
   * docs/tracing.md, Sampling).
   * @defaultValue none
   */
  sampling?: { rate?: number; keepErrors?: boolean; keepSlowerThanMs?: number; keepAttributes?: string[]; maxHeldCalls?: number };
  /**
   * Keys whose values are recorded as `"REDACTED"` at any depth of inputs, outputs and attributes; this list
   * replaces the default one (`DEFAULT_REDACT_KEYS` is exported to extend it). Matching ignores case and
   * `-`/`_`/camelCase separators and finds the listed words inside longer keys (`x-api-key`,
   * `access_token`), whole words only (`max_tokens` is kept).
   *
   * Env: `WEFT_REDACT_KEYS` (comma-separated).
   * @defaultValue `['api_key', 'apiKey', 'authorization', 'password', 'secret', 'token', 'cookie']`
   */
  redactKeys?: string[];
  /**
   * Runs on every user value that is recorded (after redaction and `postprocess*`): the inputs object, the
   * output, the attributes object, the exception as `{type, message, stack}`, the `summarize` fields
   * (without `usage`) and each `addFeedback()` payload; its result is recorded instead. If it throws,
   * `"[mask threw: value withheld]"` is recorded, never the unmasked value, and one warning is logged per
   * op.
   * @defaultValue none
   */
  mask?: (value: unknown) => unknown;
  /**
   * Media in a call's inputs or output (base64 `data:` URLs, base64 image, audio and PDF parts of the
   * OpenAI, Anthropic, Google GenAI, AI SDK and MCP shapes, `Buffer`, `Uint8Array`, `ArrayBuffer`, `Blob`,
   * `weftMedia()`) are stored once per project as files (`POST /file/create`, by content digest, in the
   * background, ahead of the batch holding the call) and the call holds a reference
   * `{"_type": "weft.media", mime_type, size_bytes, digest, where}` in their place. `maxFileBytes` (default
   * 10,000,000) is the largest file stored and `maxPendingBytes` (default 64 MiB) the bytes of files waiting
   * to be sent held in memory; a file over either is not stored and its reference says why (`dropped`).
   * `false` turns media storage off: media are recorded as before (cut strings, a base64 preview of binary
   * values). See docs/tracing.md, "Media".
   * @defaultValue none (media stored, with the default limits)
   */
  media?: false | { maxFileBytes?: number; maxPendingBytes?: number };
  /**
   * Chunks of a returned stream kept as the call's output (an op's own option wins).
   *
   * Unit: chunks. Range: min 0. Env: `WEFT_MAX_STREAM_CHUNKS`.
   * @defaultValue `1000`
   */
  maxStreamChunks?: number;
}
