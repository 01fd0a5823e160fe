/**
 * Redaction of secrets by key name: which object keys count as secret, decided by words, cached per key.
 * @module
 */

/** Keys whose values are replaced by `"REDACTED"` unless `init({ redactKeys })` says otherwise. */
export const DEFAULT_REDACT_KEYS: readonly string[] = ['api_key', 'apiKey', 'authorization', 'password', 'secret', 'token', 'cookie'];

/** What a redacted value is replaced by. */
export const REDACTED = 'REDACTED';

const CACHE_LIMIT = 10_000;

/** Last words that make a key a measurement (`time_to_first_token_ms`, `token_count`), never a secret. */
const MEASURES = new Set(['ms', 'count', 'length']);

/** The lower-case words of a key: split at `-`, `_`, `.`, spaces and other punctuation, and at camelCase humps. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/**
 * Decides whether a key is secret. A key matches a listed entry when consecutive words of the key,
 * joined, spell the entry's words joined (case and separators ignored): with the entry `apiKey`, the keys
 * `api_key`, `X-API-Key`, `OPENAI_API_KEY` and `apikey` match; with `token`, `access_token` and
 * `refreshToken` match while `max_tokens` and `prompt_tokens` do not (whole words only, no plurals).
 * A key of several words ending in `ms`, `count` or `length` is a measurement and never matches
 * (`time_to_first_token_ms`, `token_count`).
 */
export class KeyRedactor {
  private readonly targets: string[];
  private readonly cache = new Map<string, boolean>();

  constructor(keys: readonly string[]) {
    this.targets = [...new Set(keys.map((k) => keyWords(k).join('')).filter((k) => k !== ''))];
  }

  /** True when `key` names a secret. */
  matches(key: string): boolean {
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const result = this.compute(key);
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(key, result);
    return result;
  }

  private compute(key: string): boolean {
    if (this.targets.length === 0) return false;
    const words = keyWords(key);
    if (words.length > 1 && MEASURES.has(words[words.length - 1]!)) return false;
    for (let i = 0; i < words.length; i++) {
      let joined = '';
      for (let j = i; j < words.length; j++) {
        joined += words[j];
        if (this.targets.includes(joined)) return true;
        if (joined.length >= 64) break;
      }
    }
    return false;
  }
}
