/**
 * init() options and env vars resolved into Settings, validated with zod; misconfiguration is a clear ConfigError.
 * @module
 */
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { DEFAULT_BASE_URL } from './api/core/client-options.js';
import { DEFAULT_BATCHER_OPTIONS } from './export/batcher-options.js';
import { DEFAULT_EXPORT_OPTIONS } from './export/export-options.js';
import { DEFAULT_REDACT_KEYS } from './instrument/redact.js';
import { DEFAULT_MAX_STREAM_CHUNKS } from './instrument/trace-settings.js';

/** Options of `init()`. Every field falls back to an env var, then to its default. */
export interface InitOptions {
  /** Project calls are recorded in, `<entity>/<project>`. Env: `WEFT_PROJECT`. Required. */
  project?: string;
  /** Service URL. Env: `WEFT_BASE_URL`. @defaultValue `http://127.0.0.1:6345` (a local `weft serve`) */
  baseUrl?: string;
  /** API key (Basic `api:<key>`; Bearer on `/v1/preview/*`). Env: `WEFT_API_KEY`. @defaultValue none */
  apiKey?: string;
  /** Record calls at all. Env: `WEFT_DISABLED=true` turns tracing off. @defaultValue true */
  enabled?: boolean;
  /** `svc_user_id` stamped on every call. Env: `WEFT_USER_ID`. @defaultValue none */
  userId?: string;
  /** Events per batch (min 1). Env: `WEFT_MAX_BATCH_ITEMS`. @defaultValue 500 */
  maxBatchItems?: number;
  /** Longest wait before buffered events are sent, in ms (min 1). Env: `WEFT_FLUSH_INTERVAL_MS`. @defaultValue 1000 */
  flushIntervalMs?: number;
  /** Export requests in flight at once (min 1). @defaultValue 2 */
  maxConcurrentRequests?: number;
  /** Events held in memory before new ones are dropped (min 1). @defaultValue 100000 */
  maxQueueItems?: number;
  /**
   * Longest wait, in ms, for pending events when the process is about to exit (`beforeExit`); what is
   * still unsent then is written to the spool (with `spoolDir`) or dropped with a warning, so the process can exit (min 0).
   * Env: `WEFT_EXIT_TIMEOUT_MS`. @defaultValue 10000
   */
  exitTimeoutMs?: number;
  /**
   * HTTP retries per export request after connection errors, 408, 409, 429, 5xx (min 0); `retryBudgetMs`
   * usually ends retrying first. @defaultValue 20
   */
  maxRetries?: number;
  /**
   * A batch is also cut before its body would exceed this many bytes (min 1024); one event larger than
   * that has its inputs, output and attributes replaced by `{_weft_truncated: {original_bytes, limit_bytes}}`.
   * Env: `WEFT_MAX_BATCH_BYTES`. @defaultValue 4194304 (4 MiB)
   */
  maxBatchBytes?: number;
  /** Serialized bytes of events held in memory before new ones are spooled or dropped (min 1024). @defaultValue 67108864 (64 MiB) */
  maxQueueBytes?: number;
  /** Backoff ceiling of an export request's first retry, in ms (min 0); doubles per retry, full jitter. @defaultValue 500 */
  retryInitialDelayMs?: number;
  /** Largest backoff ceiling, in ms (min 0); a `Retry-After` of up to 60 s wins over it. @defaultValue 8000 */
  retryMaxDelayMs?: number;
  /**
   * Time an export batch may spend on retries, in ms (min 0); then it goes to the spool, or is dropped
   * as `unreachable` without one. Env: `WEFT_RETRY_BUDGET_MS`. @defaultValue 30000
   */
  retryBudgetMs?: number;
  /**
   * Directory of the disk spool: events that memory cannot hold, or that stay unsent past the retry
   * budget, are appended there and replayed in order once the server answers, also by the next process
   * using the same directory. Env: `WEFT_SPOOL_DIR`. @defaultValue none (no spool: such events are dropped)
   */
  spoolDir?: string;
  /** Size cap of the spool directory, in bytes (min 1024). Env: `WEFT_SPOOL_MAX_BYTES`. @defaultValue 268435456 (256 MiB) */
  spoolMaxBytes?: number;
  /**
   * On SIGTERM and SIGINT, flush (within `exitTimeoutMs`), then let the signal do what it would have
   * done: re-raised when the program has no listener of its own for it. Env: `WEFT_HANDLE_SIGNALS`. @defaultValue false
   */
  handleSignals?: boolean;
  /**
   * `'immediate'` also sends a trace's events as soon as its root call ends (serverless); `'batch'` waits
   * for a full batch or `flushIntervalMs`. Env: `WEFT_FLUSH_MODE`. @defaultValue 'batch'
   */
  flushMode?: 'batch' | 'immediate';
  /**
   * Receives the flush promise each time a root call ends, e.g. `waitUntil` of Vercel
   * (`import { waitUntil } from '@vercel/functions'`) or Cloudflare (`ctx.waitUntil.bind(ctx)`), so the
   * platform keeps the function alive until its events are sent. The promise never rejects. @defaultValue none
   */
  waitUntil?: (promise: Promise<unknown>) => void;
  /**
   * Fraction of traces recorded, 0..1, decided once per trace at its root call (children follow the
   * root; a trace left out records nothing at any depth). Env: `WEFT_SAMPLE_RATE`. @defaultValue 1
   */
  sampleRate?: number;
  /**
   * Keys whose values are recorded as `"REDACTED"` at any depth of inputs, outputs and attributes; this
   * list replaces the default one. Matching ignores case and `-`/`_`/camelCase separators and finds the
   * listed words inside longer keys (`x-api-key`, `access_token`), whole words only (`max_tokens` is kept).
   * Env: `WEFT_REDACT_KEYS` (comma-separated).
   * @defaultValue `['api_key', 'apiKey', 'authorization', 'password', 'secret', 'token', 'cookie']`
   */
  redactKeys?: string[];
  /**
   * Runs on every recorded `inputs` object and output (after redaction and `postprocess*`); its result
   * is recorded instead. Fails closed: if it throws, the value is recorded as
   * `"[mask threw: value withheld]"`, never unmasked. @defaultValue none
   */
  mask?: (value: unknown) => unknown;
  /** Chunks of a returned stream kept as the call's output (min 0; ops may override). Env: `WEFT_MAX_STREAM_CHUNKS`. @defaultValue 1000 */
  maxStreamChunks?: number;
}

const envBool = (v: string | undefined) => (v === undefined || v === '' ? undefined : /^(1|true|yes|on)$/i.test(v));
const envNum = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const envList = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((k) => k.trim()).filter((k) => k !== ''));

const int = (min: number) => z.number({ error: (i) => `expected a number, got ${describe(i.input)}` }).int().min(min);

const SettingsSchema = z.object({
  project: z
    .string({ error: () => 'missing: pass init({ project: "<entity>/<project>" }) or set WEFT_PROJECT' })
    .trim()
    .min(1, 'must not be empty'),
  baseUrl: z.url({ protocol: /^https?$/, error: (i) => `expected an http(s) URL, got ${describe(i.input)}` }),
  apiKey: z.string().optional(),
  enabled: z.boolean(),
  userId: z.string().optional(),
  maxBatchItems: int(1),
  flushIntervalMs: int(1),
  maxConcurrentRequests: int(1),
  maxQueueItems: int(1),
  maxRetries: int(0),
  exitTimeoutMs: int(0),
  sampleRate: z.number({ error: (i) => `expected a number from 0 to 1, got ${describe(i.input)}` }).min(0).max(1),
  redactKeys: z.array(z.string(), { error: (i) => `expected an array of strings, got ${describe(i.input)}` }),
  mask: z.custom<(value: unknown) => unknown>((v) => v === undefined || typeof v === 'function', {
    error: (i) => `expected a function, got ${describe(i.input)}`,
  }).optional(),
  maxStreamChunks: int(0),
  maxBatchBytes: int(1024),
  maxQueueBytes: int(1024),
  retryInitialDelayMs: int(0),
  retryMaxDelayMs: int(0),
  retryBudgetMs: int(0),
  spoolDir: z.string().min(1, 'must not be empty').optional(),
  spoolMaxBytes: int(1024),
  handleSignals: z.boolean({ error: (i) => `expected a boolean, got ${describe(i.input)}` }),
  flushMode: z.enum(['batch', 'immediate'], { error: (i) => `expected "batch" or "immediate", got ${describe(i.input)}` }),
  waitUntil: z.custom<(promise: Promise<unknown>) => void>((v) => v === undefined || typeof v === 'function', {
    error: (i) => `expected a function, got ${describe(i.input)}`,
  }).optional(),
});

/** Fully resolved settings. */
export type Settings = z.infer<typeof SettingsSchema>;

/**
 * Merges `options`, env vars and defaults, and validates the result.
 * @throws {ConfigError} naming each bad option, what was expected and what was received.
 */
export function resolveSettings(options: InitOptions = {}, env: NodeJS.ProcessEnv = process.env): Settings {
  const disabled = envBool(env.WEFT_DISABLED);
  const raw = {
    project: options.project ?? (env.WEFT_PROJECT || undefined),
    baseUrl: options.baseUrl ?? (env.WEFT_BASE_URL || DEFAULT_BASE_URL),
    apiKey: options.apiKey ?? (env.WEFT_API_KEY || undefined),
    enabled: disabled === true ? false : (options.enabled ?? true),
    userId: options.userId ?? (env.WEFT_USER_ID || undefined),
    maxBatchItems: options.maxBatchItems ?? envNum(env.WEFT_MAX_BATCH_ITEMS) ?? DEFAULT_BATCHER_OPTIONS.maxBatchItems,
    flushIntervalMs: options.flushIntervalMs ?? envNum(env.WEFT_FLUSH_INTERVAL_MS) ?? DEFAULT_BATCHER_OPTIONS.flushIntervalMs,
    maxConcurrentRequests: options.maxConcurrentRequests ?? DEFAULT_BATCHER_OPTIONS.maxConcurrentRequests,
    maxQueueItems: options.maxQueueItems ?? DEFAULT_BATCHER_OPTIONS.maxQueueItems,
    maxRetries: options.maxRetries ?? DEFAULT_EXPORT_OPTIONS.maxRetries,
    exitTimeoutMs: options.exitTimeoutMs ?? envNum(env.WEFT_EXIT_TIMEOUT_MS) ?? 10_000,
    sampleRate: options.sampleRate ?? envNum(env.WEFT_SAMPLE_RATE) ?? 1,
    redactKeys: options.redactKeys ?? envList(env.WEFT_REDACT_KEYS) ?? [...DEFAULT_REDACT_KEYS],
    mask: options.mask,
    maxStreamChunks: options.maxStreamChunks ?? envNum(env.WEFT_MAX_STREAM_CHUNKS) ?? DEFAULT_MAX_STREAM_CHUNKS,
    maxBatchBytes: options.maxBatchBytes ?? envNum(env.WEFT_MAX_BATCH_BYTES) ?? DEFAULT_BATCHER_OPTIONS.maxBatchBytes,
    maxQueueBytes: options.maxQueueBytes ?? DEFAULT_BATCHER_OPTIONS.maxQueueBytes,
    retryInitialDelayMs: options.retryInitialDelayMs ?? DEFAULT_EXPORT_OPTIONS.retryInitialDelayMs,
    retryMaxDelayMs: options.retryMaxDelayMs ?? DEFAULT_EXPORT_OPTIONS.retryMaxDelayMs,
    retryBudgetMs: options.retryBudgetMs ?? envNum(env.WEFT_RETRY_BUDGET_MS) ?? DEFAULT_EXPORT_OPTIONS.retryBudgetMs,
    spoolDir: options.spoolDir ?? (env.WEFT_SPOOL_DIR || undefined),
    spoolMaxBytes: options.spoolMaxBytes ?? envNum(env.WEFT_SPOOL_MAX_BYTES) ?? DEFAULT_EXPORT_OPTIONS.spoolMaxBytes,
    handleSignals: options.handleSignals ?? envBool(env.WEFT_HANDLE_SIGNALS) ?? false,
    flushMode: options.flushMode ?? (env.WEFT_FLUSH_MODE || DEFAULT_EXPORT_OPTIONS.flushMode),
    waitUntil: options.waitUntil,
  };
  const parsed = SettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`weft init(): invalid options\n${lines.join('\n')}`);
  }
  return parsed.data;
}

function describe(v: unknown): string {
  if (typeof v === 'number' && Number.isNaN(v)) return 'NaN (a non-numeric value, e.g. from an env var)';
  return `${JSON.stringify(v) ?? String(v)} (${typeof v})`;
}
