/**
 * Every `init()` option written once: purpose, type, unit, default, range, env var and the zod check; settings, the exporter's options, `InitOptions` and the options table of docs/tracing.md derive from it.
 * @module
 */
import { z } from 'zod';
import { DEFAULT_BASE_URL } from './api/core/client-options.js';
import { DEFAULT_RETRY_POLICY } from './api/core/retry.js';
import { DEFAULT_REDACT_KEYS } from './instrument/redact.js';
import { DEFAULT_MAX_STREAM_CHUNKS } from './instrument/trace-settings.js';
import { defaultQueueBytes, MAX_QUEUE_BYTES } from './internal/memory-budget.js';
import { isProjectId, projectIdMessage } from './schema/project-id.js';
import { SamplingSchema } from './init-sampling-option.js';
import { MediaSchema } from './init-media-option.js';

/** Where an option falls back to when it is not passed. */
export interface EnvVar {
  readonly name: string;
  /** The env var's text as the option's value; `undefined` when it says nothing (unset or empty). */
  readonly read: (raw: string | undefined) => unknown;
  /** How the text is read, when not plainly (e.g. `comma-separated`). */
  readonly note?: string;
  /** The env var wins over the option (only `WEFT_DISABLED`: an operator can switch tracing off). */
  readonly overrides?: boolean;
}

/** One option of `init()`. */
export interface InitOption<S extends z.ZodType = z.ZodType, D = unknown> {
  /** What the option does, in markdown: the TSDoc of `InitOptions` and the "meaning" column of docs/tracing.md's table. */
  readonly purpose: string;
  /** Its TypeScript type, as `InitOptions` declares it (a type test checks it against `schema`). */
  readonly type: string;
  /** Checks the resolved value; messages say what was expected and what was received. */
  readonly schema: S;
  /** The value when neither the option nor its env var is set; `undefined` when there is none. */
  readonly default: D;
  /** Where the default depends on the machine: the value to use instead of {@link InitOption.default}, read when the options are resolved (`default` is then the one the docs give). */
  readonly machineDefault?: () => D;
  /** Said after "none" when there is no default. */
  readonly noDefault?: string;
  /** Unit of a numeric value, in words (`ms`, `bytes`, `events`). */
  readonly unit?: string;
  /** Smallest value accepted. */
  readonly min?: number;
  /** Largest value accepted. */
  readonly max?: number;
  readonly env?: EnvVar;
}

/** `"value" (type)` of a received value, for the messages of `ConfigError`. */
function describeValue(v: unknown): string {
  if (typeof v === 'number' && Number.isNaN(v)) return 'NaN (a non-numeric value, e.g. from an env var)';
  return `${JSON.stringify(v) ?? String(v)} (${typeof v})`;
}

const expected = (what: string) => ({ error: (i: { input: unknown }) => `expected ${what}, got ${describeValue(i.input)}` });
const text = (name: string): EnvVar => ({ name, read: (v) => v || undefined });
const numeric = (name: string): EnvVar => ({ name, read: (v) => (v === undefined || v === '' ? undefined : Number(v)) });
const flagOf = (v: string | undefined) => (v === undefined || v === '' ? undefined : /^(1|true|yes|on)$/i.test(v));
const flag = (name: string): EnvVar => ({ name, read: flagOf, note: '`1`, `true`, `yes` or `on` for true' });
const list = (name: string): EnvVar => ({
  name,
  read: (v) => (v === undefined ? undefined : v.split(',').map((k) => k.trim()).filter((k) => k !== '')),
  note: 'comma-separated',
});
const fn = <F>(what: string) => z.custom<F>((v) => v === undefined || typeof v === 'function', expected(what)).optional();

const option = <S extends z.ZodType, const D extends z.output<S> | undefined>(o: InitOption<S, D>): InitOption<S, D> => o;

/** A numeric option from `min` (to `max`), an integer unless `fraction`; its check is made from those. */
const num = <D extends number>(o: Omit<InitOption<z.ZodNumber, D>, 'type' | 'schema'> & { min: number; fraction?: boolean }) => {
  const base = z.number(expected(o.max === undefined ? 'a number' : `a number from ${o.min} to ${o.max}`));
  const checked = (o.fraction ? base : base.int()).min(o.min);
  const { fraction: _, ...spec } = o;
  return option({ ...spec, type: 'number', schema: o.max === undefined ? checked : checked.max(o.max) });
};

/** The options, in the order the docs list them. */
export const INIT_OPTIONS = {
  project: option({
    purpose: '`<entity>/<project>` the calls are recorded in.',
    type: 'string',
    schema: z
      .string({ error: () => 'missing: pass init({ project: "<entity>/<project>" }) or set WEFT_PROJECT' })
      .trim()
      .refine(isProjectId, { error: (issue) => projectIdMessage(issue.input) }),
    default: undefined,
    noDefault: 'required',
    env: text('WEFT_PROJECT'),
  }),
  baseUrl: option({
    purpose: 'The service, an http(s) URL: a local `weft serve` by default, or the hosted service.',
    type: 'string',
    schema: z.url({ protocol: /^https?$/, ...expected('an http(s) URL') }),
    default: DEFAULT_BASE_URL,
    env: text('WEFT_BASE_URL'),
  }),
  apiKey: option({
    purpose: 'API key, sent as Basic `api:<key>` on the core endpoints and as Bearer on `/v1/preview/*`.',
    type: 'string',
    schema: z.string().optional(),
    default: undefined,
    noDefault: 'no Authorization header',
    env: text('WEFT_API_KEY'),
  }),
  enabled: option({
    purpose: 'Record calls at all; when `false`, ops run untraced and nothing is sent.',
    type: 'boolean',
    schema: z.boolean(),
    default: true,
    env: { name: 'WEFT_DISABLED', read: (v) => (flagOf(v) === true ? false : undefined), note: '`1`, `true`, `yes` or `on` turns tracing off, whatever the option says', overrides: true },
  }),
  userId: option({
    purpose: '`svc_user_id` stamped on every call and feedback item.',
    type: 'string',
    schema: z.string().optional(),
    default: undefined,
    env: text('WEFT_USER_ID'),
  }),
  maxBatchItems: num({
    purpose: 'A batch is sent as soon as this many events wait.',
    unit: 'events',
    min: 1,
    default: 500,
    env: numeric('WEFT_MAX_BATCH_ITEMS'),
  }),
  maxBatchBytes: num({
    purpose:
      'A batch is also cut before its request body would pass this size. A call event larger than that is sent with its `inputs` and `attributes` (start) or `output` (end) replaced by `{"_weft_truncated": {"original_bytes", "limit_bytes"}}` and an exception\'s message and stack shortened; one still too large, or a feedback item too large, is dropped as `oversize`. A batch the server refuses as too large (413) is sent in halves.',
    unit: 'bytes',
    min: 1024,
    default: 4 * 1024 * 1024,
    env: numeric('WEFT_MAX_BATCH_BYTES'),
  }),
  flushIntervalMs: num({
    purpose: 'Longest wait, from the first of them, before waiting events are sent; the timer never keeps the process alive.',
    unit: 'ms',
    min: 1,
    default: 1000,
    env: numeric('WEFT_FLUSH_INTERVAL_MS'),
  }),
  maxConcurrentRequests: num({
    purpose: 'Export requests in flight at once, per queue (call events and feedback items each have one).',
    unit: 'requests',
    min: 1,
    default: 2,
  }),
  maxQueueItems: num({
    purpose:
      'Events held in memory (waiting or being sent); beyond it new events go to the spool, or are dropped, counted and warned about. The last 10% are kept for end events of calls already started. A call is two events.',
    unit: 'events',
    min: 1,
    default: 1_000_000,
  }),
  maxQueueBytes: num({
    purpose:
      'The same cap as `maxQueueItems`, in serialized bytes of the events held in memory. The default is 1/8 of the memory the process may use (its cgroup limit or the machine\'s memory, whichever is less) between 64 MiB and 256 MiB: 256 MiB from 2 GiB up, 64 MiB where the memory cannot be read (Vercel Edge, workerd). So a burst that outruns the server for a moment (200,000 small calls hold about 90 MB) waits in memory; the disk spool is for a server that is down or refusing.',
    unit: 'bytes',
    min: 1024,
    default: MAX_QUEUE_BYTES,
    machineDefault: defaultQueueBytes,
  }),
  maxRetries: num({
    purpose:
      'Retries per export request after a connection error, 408, 409, 429 or 5xx; `retryBudgetMs` usually ends them first. The `Client` that `init()` returns keeps its own `maxRetries`.',
    unit: 'retries',
    min: 0,
    default: 20,
  }),
  retryInitialDelayMs: num({
    purpose: 'Backoff ceiling of an export request\'s first retry; it doubles per retry, with full jitter (a random wait between 0 and the ceiling).',
    unit: 'ms',
    min: 0,
    default: DEFAULT_RETRY_POLICY.initialDelayMs,
  }),
  retryMaxDelayMs: num({
    purpose:
      'Largest backoff ceiling, and the wait before a failed spool replay is tried again. A `retry-after-ms` or `Retry-After` (seconds or an HTTP date) from the server wins over the backoff, however long; a wait that would end past `retryBudgetMs` is not made.',
    unit: 'ms',
    min: 0,
    default: DEFAULT_RETRY_POLICY.maxDelayMs,
  }),
  retryBudgetMs: num({
    purpose: 'Time an export batch may spend on retries, from its first attempt; then it goes to the spool, or is dropped as `unreachable` without one.',
    unit: 'ms',
    min: 0,
    default: 30_000,
    env: numeric('WEFT_RETRY_BUDGET_MS'),
  }),
  spoolDir: option({
    purpose:
      'Directory of the disk spool: call events that memory cannot hold, batches still unsent after the retry budget, and what is unsent at exit are appended there (JSONL segment files) and replayed in order once the server answers, by this process, the next one using the same directory, or `weft spool flush`. By default a directory under the OS temp directory keyed by `baseUrl` and `project`, created (mode 0700) only when something is written; `false` turns the spool off (such events are then dropped). Off where the runtime has no `node:fs` (Vercel Edge), said once. Feedback is never spooled.',
    type: 'string | false',
    schema: z.union([z.string().min(1, 'must not be empty'), z.literal(false)], expected('a directory or false')).optional(),
    default: undefined,
    noDefault: 'so one computed per `baseUrl` and `project`: `<tmpdir>/weft-spool-<uid>/<host>_<port>-<entity>_<project>-<hash>`',
    env: { name: 'WEFT_SPOOL_DIR', read: (v) => (v ? (/^(off|false|0|no)$/i.test(v) ? false : v) : undefined), note: '`off` (or `false`, `0`, `no`) turns it off' },
  }),
  spoolMaxBytes: num({
    purpose: 'Size cap of the spool directory; beyond it new events are dropped as `spool_full`.',
    unit: 'bytes',
    min: 1024,
    default: 64 * 1024 * 1024,
    env: numeric('WEFT_SPOOL_MAX_BYTES'),
  }),
  exitTimeoutMs: num({
    purpose:
      'Longest wait for unsent events when the process is about to exit (`beforeExit`, or a signal with `handleSignals`), e.g. for a server that is restarting; then requests in flight are aborted and their events spooled (or dropped with the spool off), one line saying where, so the process can exit. Not waited for when no connection to `baseUrl` was ever answered, by this process or (a marker in the spool directory says so) an earlier one: then the events are spooled at once.',
    unit: 'ms',
    min: 0,
    default: 10_000,
    env: numeric('WEFT_EXIT_TIMEOUT_MS'),
  }),
  spoolCourier: option({
    purpose:
      'When the exit spooled its events at once because no connection to `baseUrl` was ever answered, start a short-lived detached process (the spool courier, `dist/spool-courier.js`) that keeps sending that spool until it is empty or `exitTimeoutMs` after the exit, then exits; the app itself exits as before. So a server that comes up within `exitTimeoutMs` gets every event, and a missing one costs no wait. At most one per spool; none where the SDK is bundled into the app or the runtime cannot start processes. What it could not send stays in the spool.',
    type: 'boolean',
    schema: z.boolean(expected('a boolean')),
    default: true,
    env: { name: 'WEFT_SPOOL_COURIER', read: flagOf, note: '`off` (or `false`, `0`, `no`) turns it off' },
  }),
  printViewerLink: option({
    purpose:
      'Print the trace viewer\'s link to the first trace of the process on standard error (once per process), when `baseUrl` is a `weft serve` (its `GET /server_info` says so); other services print nothing.',
    type: 'boolean',
    schema: z.boolean(expected('a boolean')),
    default: true,
    env: flag('WEFT_PRINT_VIEWER_LINK'),
  }),
  handleSignals: option({
    purpose:
      'On SIGTERM and SIGINT, flush (within `exitTimeoutMs`), then re-raise the signal so it ends the process as it would have; if the program has its own listener for that signal, weft only flushes and leaves the rest to it.',
    type: 'boolean',
    schema: z.boolean(expected('a boolean')),
    default: false,
    env: flag('WEFT_HANDLE_SIGNALS'),
  }),
  flushMode: option({
    purpose: '`\'immediate\'` also sends a trace\'s events as soon as its root call ends (serverless); `\'batch\'` waits for a full batch or `flushIntervalMs`.',
    type: "'batch' | 'immediate'",
    schema: z.enum(['batch', 'immediate'], expected('"batch" or "immediate"')),
    default: 'batch',
    env: text('WEFT_FLUSH_MODE'),
  }),
  waitUntil: option({
    purpose:
      'Handed the flush promise each time a root call ends, e.g. Vercel\'s `waitUntil` (from `@vercel/functions`) or Cloudflare\'s `ctx.waitUntil.bind(ctx)`, so the platform keeps the function alive until its events are sent; the promise never rejects.',
    type: '(promise: Promise<unknown>) => void',
    schema: fn<(promise: Promise<unknown>) => void>('a function'),
    default: undefined,
  }),
  sampleRate: num({
    purpose: 'Fraction of traces recorded, decided once per trace at its root call; children follow their root (a trace left out records nothing at any depth).',
    fraction: true,
    min: 0,
    max: 1,
    default: 1,
    env: numeric('WEFT_SAMPLE_RATE'),
  }),
  sampling: option({
    purpose:
      'Which traces are sent, each whole or not at all: `rate` (0 to 1, default 1), decided from the trace id so every process of a trace agrees; and tail rules that keep a trace the rate leaves out, decided when its last open call in this process ends: `keepErrors` (a call failed; default true), `keepSlowerThanMs` (a call took longer), `keepAttributes` (a call carries one of these attribute keys). Calls held for a decision are bounded by `maxHeldCalls` (default 10000): the trace that goes over is sent at once. Counts in `getExportStats().sampling`, said once at exit. Unset: every trace is sent and nothing is held (see docs/tracing.md, Sampling).',
    type: '{ rate?: number; keepErrors?: boolean; keepSlowerThanMs?: number; keepAttributes?: string[]; maxHeldCalls?: number }',
    schema: SamplingSchema.optional(),
    default: undefined,
  }),
  redactKeys: option({
    purpose:
      'Keys whose values are recorded as `"REDACTED"` at any depth of inputs, outputs and attributes; this list replaces the default one (`DEFAULT_REDACT_KEYS` is exported to extend it). Matching ignores case and `-`/`_`/camelCase separators and finds the listed words inside longer keys (`x-api-key`, `access_token`), whole words only (`max_tokens` is kept).',
    type: 'string[]',
    schema: z.array(z.string(), expected('an array of strings')),
    default: [...DEFAULT_REDACT_KEYS],
    env: list('WEFT_REDACT_KEYS'),
  }),
  mask: option({
    purpose:
      'Runs on every user value that is recorded (after redaction and `postprocess*`): the inputs object, the output, the attributes object, the exception as `{type, message, stack}`, the `summarize` fields (without `usage`) and each `addFeedback()` payload; its result is recorded instead. If it throws, `"[mask threw: value withheld]"` is recorded, never the unmasked value, and one warning is logged per op.',
    type: '(value: unknown) => unknown',
    schema: fn<(value: unknown) => unknown>('a function'),
    default: undefined,
  }),
  media: option({
    purpose:
      'Media in a call\'s inputs or output (base64 `data:` URLs, base64 image, audio and PDF parts of the OpenAI, Anthropic, Google GenAI, AI SDK and MCP shapes, `Buffer`, `Uint8Array`, `ArrayBuffer`, `Blob`, `weftMedia()`) are stored once per project as files (`POST /file/create`, by content digest, in the background, ahead of the batch holding the call) and the call holds a reference `{"_type": "weft.media", mime_type, size_bytes, digest, where}` in their place. `maxFileBytes` (default 10,000,000) is the largest file stored and `maxPendingBytes` (default 64 MiB) the bytes of files waiting to be sent held in memory; a file over either is not stored and its reference says why (`dropped`). `false` turns media storage off: media are recorded as before (cut strings, a base64 preview of binary values). See docs/tracing.md, "Media".',
    type: 'false | { maxFileBytes?: number; maxPendingBytes?: number }',
    schema: MediaSchema.optional(),
    default: undefined,
    noDefault: 'media stored, with the default limits',
  }),
  maxStreamChunks: num({
    purpose: 'Chunks of a returned stream kept as the call\'s output (an op\'s own option wins).',
    unit: 'chunks',
    min: 0,
    default: DEFAULT_MAX_STREAM_CHUNKS,
    env: numeric('WEFT_MAX_STREAM_CHUNKS'),
  }),
} as const;

/** The name of an `init()` option. */
export type InitOptionName = keyof typeof INIT_OPTIONS;

/** The value an option takes when neither it nor its env var is set: its machine default where it has one. */
export function defaultValue(o: InitOption): unknown {
  return o.machineDefault ? o.machineDefault() : o.default;
}

/** The defaults of `names`, typed as the table writes them (machine defaults read now). */
export function defaultsOf<K extends InitOptionName>(names: readonly K[]): { [P in K]: (typeof INIT_OPTIONS)[P]['default'] } {
  return Object.fromEntries(names.map((n) => [n, defaultValue(INIT_OPTIONS[n] as InitOption)])) as { [P in K]: (typeof INIT_OPTIONS)[P]['default'] };
}
