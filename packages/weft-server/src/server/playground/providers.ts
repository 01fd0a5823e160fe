/**
 * The model providers the playground calls from the server, configured by the server's environment: which
 * variable holds each key and base URL, and which are set. Keys are read in the worker that calls the provider and
 * never answered to the page.
 * @module
 */

/** The providers the playground can call. */
export const PLAYGROUND_PROVIDERS = ['openai', 'anthropic', 'google'] as const;
export type PlaygroundProvider = (typeof PLAYGROUND_PROVIDERS)[number];

/** Where a provider's key and base URL come from. */
export interface ProviderEnv {
  /** The variable holding the API key (the first of `keyVars` set is used). */
  keyVars: readonly string[];
  /** The variable naming another base URL (an OpenAI-compatible server, a proxy), when set. */
  baseUrlVars: readonly string[];
}

/**
 * The variables of each provider: `OPENAI_API_KEY` and `WEFT_PLAYGROUND_OPENAI_BASE_URL` (else `OPENAI_BASE_URL`; any
 * OpenAI-compatible API), `ANTHROPIC_API_KEY` and `WEFT_PLAYGROUND_ANTHROPIC_BASE_URL` (else `ANTHROPIC_BASE_URL`),
 * `GEMINI_API_KEY` (else `GOOGLE_API_KEY`) and `WEFT_PLAYGROUND_GOOGLE_BASE_URL`.
 */
export const PROVIDER_ENV: Record<PlaygroundProvider, ProviderEnv> = {
  openai: { keyVars: ['OPENAI_API_KEY'], baseUrlVars: ['WEFT_PLAYGROUND_OPENAI_BASE_URL', 'OPENAI_BASE_URL'] },
  anthropic: { keyVars: ['ANTHROPIC_API_KEY'], baseUrlVars: ['WEFT_PLAYGROUND_ANTHROPIC_BASE_URL', 'ANTHROPIC_BASE_URL'] },
  google: { keyVars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], baseUrlVars: ['WEFT_PLAYGROUND_GOOGLE_BASE_URL'] },
};

type Env = Readonly<Record<string, string | undefined>>;
const first = (env: Env, vars: readonly string[]): string | undefined => vars.map((v) => env[v]).find((v) => v !== undefined && v !== '');

/** A provider's key and base URL from `env` (either may be absent). */
export function providerConfig(provider: PlaygroundProvider, env: Env): { apiKey: string | undefined; baseUrl: string | undefined } {
  const e = PROVIDER_ENV[provider];
  return { apiKey: first(env, e.keyVars), baseUrl: first(env, e.baseUrlVars) };
}

/** What the page may know of a provider: whether it is configured, the variable to set when not, the base URL. */
export interface ProviderStatus {
  provider: PlaygroundProvider;
  configured: boolean;
  key_env: string;
  base_url: string | null;
}

/** Every provider's status in `env` (no key is ever part of it). */
export function providerStatuses(env: Env): ProviderStatus[] {
  return PLAYGROUND_PROVIDERS.map((provider) => {
    const { apiKey, baseUrl } = providerConfig(provider, env);
    return { provider, configured: apiKey !== undefined, key_env: PROVIDER_ENV[provider].keyVars[0]!, base_url: baseUrl ?? null };
  });
}

/** The message saying which variable to set for `provider`'s key. */
export function missingKeyMessage(provider: PlaygroundProvider): string {
  const vars = PROVIDER_ENV[provider].keyVars;
  return `no API key for ${provider}: set ${vars.join(' or ')} in the environment of the weft server (the key stays on the server), then restart it`;
}
