/**
 * init() options and env vars resolved into Settings, validated with zod; misconfiguration is a clear ConfigError.
 * @module
 */
import { z } from 'zod';
import { ConfigError } from './api/errors.js';
import { DEFAULT_BASE_URL } from './api/client-options.js';
import { DEFAULT_BATCHER_OPTIONS } from './export/batcher-options.js';
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
   * still unsent then is dropped with a warning so the process can exit (min 0).
   * Env: `WEFT_EXIT_TIMEOUT_MS`. @defaultValue 10000
   */
  exitTimeoutMs?: number;
  /** HTTP retries per export request after connection errors, 408, 409, 429, 5xx (min 0). @defaultValue 4 */
  maxRetries?: number;
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
    maxRetries: options.maxRetries ?? 4,
    exitTimeoutMs: options.exitTimeoutMs ?? envNum(env.WEFT_EXIT_TIMEOUT_MS) ?? 10_000,
    sampleRate: options.sampleRate ?? envNum(env.WEFT_SAMPLE_RATE) ?? 1,
    redactKeys: options.redactKeys ?? envList(env.WEFT_REDACT_KEYS) ?? [...DEFAULT_REDACT_KEYS],
    mask: options.mask,
    maxStreamChunks: options.maxStreamChunks ?? envNum(env.WEFT_MAX_STREAM_CHUNKS) ?? DEFAULT_MAX_STREAM_CHUNKS,
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
