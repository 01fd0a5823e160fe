/**
 * What this process already published through a client (a table of rows, an object version), by content: publishing the same again reuses the digests the server answered (it would answer the same ones) instead of sending and validating it again.
 * @module
 */
import type { Client } from '../api/client.js';

/** Publications kept per client, the oldest forgotten first (a key holds the published JSON). */
const MAX_PER_CLIENT = 16;

const published = new WeakMap<Client, Map<string, unknown>>();

/**
 * `publish()`'s result, made once per client and `key` (a text naming the project and the whole content, such as
 * {@link contentKey}'s): a repeated key answers what the first publication answered. A failed publication is not
 * kept; without a key (content with no JSON) nothing is reused.
 * @throws whatever `publish()` throws.
 */
export async function publishOnce<T>(client: Client, key: string | undefined, publish: () => Promise<T>): Promise<T> {
  if (key === undefined) return publish();
  let byKey = published.get(client);
  if (!byKey) published.set(client, (byKey = new Map()));
  if (byKey.has(key)) return byKey.get(key) as T;
  const result = await publish();
  if (byKey.size >= MAX_PER_CLIENT) byKey.delete(byKey.keys().next().value as string);
  byKey.set(key, result);
  return result;
}

/** `kind`, `project` and the JSON of `value`, as a key of {@link publishOnce}; `undefined` when `value` has no JSON (a BigInt, a cycle). */
export function contentKey(kind: string, project: string, value: unknown): string | undefined {
  try {
    return `${kind}\n${project}\n${JSON.stringify(value)}`;
  } catch {
    return undefined;
  }
}
