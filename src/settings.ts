/**
 * init() options and env vars resolved into Settings, validated with zod; misconfiguration is a clear ConfigError.
 * @module
 */
import { z } from 'zod';
import { ConfigError } from './api/errors.js';
import { DEFAULT_BASE_URL } from './api/client-options.js';
import { DEFAULT_BATCHER_OPTIONS } from './export/batcher-options.js';

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
}

const envBool = (v: string | undefined) => (v === undefined || v === '' ? undefined : /^(1|true|yes|on)$/i.test(v));
const envNum = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));

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
