/**
 * API key settings of the server: parsing `key` / `key=entity/project,...` lists and matching presented keys.
 * @module
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** One configured API key and the projects it may touch. */
export interface ApiKey {
  /** The secret. Never logged. */
  readonly key: string;
  /** `<entity>/<project>` ids this key is granted, or `null` for every project. */
  readonly projects: readonly string[] | null;
}

const KEY = /^[^\s,=/]+$/;
const PROJECT = /^[^\s,=/]+\/[^\s,=/]+$/;

/**
 * Parses API key settings. Each string is a comma-separated list of items: `key` (all projects) or
 * `key=entity/project`, where further `entity/project` items after it extend that key's grant:
 * `k1,k2=acme/a,acme/b,k3` gives k1 and k3 every project and k2 `acme/a` and `acme/b`.
 * Keys may not contain whitespace, `,`, `=` or `/` (which is what keeps the list unambiguous). Empty items
 * are ignored.
 *
 * @param specs - values of `--api-key` (repeatable), `WEFT_SERVER_API_KEYS`, or the `apiKeys` option.
 * @returns the keys, in order.
 * @throws TypeError naming the item's position (never its text, which may hold a secret) when an item is
 *   malformed, a project follows a key without a grant, or a key is given twice.
 */
export function parseApiKeys(specs: readonly string[]): ApiKey[] {
  const keys: { key: string; projects: string[] | null }[] = [];
  let position = 0;
  for (const item of specs.flatMap((s) => s.split(',')).map((s) => s.trim())) {
    position++;
    if (item === '') continue;
    const fail = (why: string): never => {
      throw new TypeError(`apiKeys: item ${position} ${why}; expected "key" or "key=entity/project,entity/project2" (keys may not contain whitespace, ",", "=" or "/")`);
    };
    const eq = item.indexOf('=');
    if (eq >= 0) {
      const key = item.slice(0, eq);
      const project = item.slice(eq + 1);
      if (!KEY.test(key)) fail('has a malformed key');
      if (!PROJECT.test(project)) fail('grants a project that is not <entity>/<project>');
      keys.push({ key, projects: [project] });
    } else if (item.includes('/')) {
      const last = keys.at(-1);
      if (!last?.projects || !PROJECT.test(item)) fail('is a project that does not follow a "key=entity/project" item');
      last!.projects!.push(item);
    } else {
      if (!KEY.test(item)) fail('has a malformed key');
      keys.push({ key: item, projects: null });
    }
    if (keys.filter((k) => k.key === keys.at(-1)!.key).length > 1) fail('repeats a key given before');
  }
  return keys;
}

const hash = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Finds the configured key equal to `presented`, comparing fixed-length hashes in constant time. */
export function findApiKey(keys: readonly ApiKey[], presented: string): ApiKey | undefined {
  const wanted = hash(presented);
  let found: ApiKey | undefined;
  for (const k of keys) if (timingSafeEqual(hash(k.key), wanted) && !found) found = k;
  return found;
}
