/**
 * Which way recorded model calls work now: `WEFT_LLM_CACHE` (`record` | `replay` | `off`), else `replay` inside a `weft-trace/vitest` eval in CI, else off.
 * @module
 */
import { diag } from '../../internal/diag.js';
import { runtimeEnv } from '../../internal/runtime.js';
import { inEvalFile } from './scope.js';

/**
 * How model requests meet their cassette: `record` sends each request and stores its response (replacing the one
 * stored under the same key), `replay` answers from the cassette and never reaches the network, `off` does nothing.
 */
export type LlmCacheMode = 'record' | 'replay' | 'off';

const MODES: readonly string[] = ['record', 'replay', 'off'];

/** `WEFT_LLM_CACHE` when set to a mode (case-insensitive); another value is logged once and means `off`. */
function explicitMode(env: Record<string, string | undefined>): LlmCacheMode | undefined {
  const raw = env['WEFT_LLM_CACHE']?.trim().toLowerCase();
  if (raw === undefined || raw === '') return undefined;
  if (MODES.includes(raw)) return raw as LlmCacheMode;
  diag.once(`llm-cache-mode:${raw}`, 'warn', `WEFT_LLM_CACHE=${raw} is not one of record, replay, off; recorded model calls are off`);
  return 'off';
}

/** Whether `CI` is set to something other than an empty string, `0` or `false` (as CI services set it). */
function inCi(env: Record<string, string | undefined>): boolean {
  const ci = env['CI']?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== '0' && ci !== 'false';
}

/**
 * The mode for a request made now: `WEFT_LLM_CACHE` when set; else `replay` when `CI` is set and a `weft-trace/vitest`
 * eval (describeEval) runs in this test file; else `off`. A user's ordinary app run never replays on its own.
 */
export function llmCacheMode(): LlmCacheMode {
  const env = runtimeEnv();
  return explicitMode(env) ?? (inCi(env) && inEvalFile() ? 'replay' : 'off');
}

/**
 * Whether a wrapper made now should reach its client's requests: the mode may be on for some request (set
 * explicitly, or `CI` set so an eval may replay). Read once per wrapped client, never per call.
 */
export function llmCacheMayApply(): boolean {
  const env = runtimeEnv();
  const mode = explicitMode(env);
  return mode === undefined ? inCi(env) : mode !== 'off';
}
