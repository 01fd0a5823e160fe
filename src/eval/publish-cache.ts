/**
 * What this process already published through a client (a dataset given as rows, an `Evaluation` object), by content: a run repeated with the same rows and settings reuses the digests the server answered (it would answer the same ones again) instead of sending and validating them again.
 * @module
 */
import type { Client } from '../api/client.js';

/** Publications kept per client, the oldest forgotten first (a key holds the published JSON). */
const MAX_PER_CLIENT = 16;

const published = new WeakMap<Client, Map<string, unknown>>();

/**
 * `publish()`'s result, made once per client and `key` (a text naming the project and the whole content, such as
 * its JSON): a repeated key answers what the first publication answered. A failed publication is not kept.
 * @throws whatever `publish()` throws.
 */
export async function publishOnce<T>(client: Client, key: string, publish: () => Promise<T>): Promise<T> {
  let byKey = published.get(client);
  if (!byKey) published.set(client, (byKey = new Map()));
  if (byKey.has(key)) return byKey.get(key) as T;
  const result = await publish();
  if (byKey.size >= MAX_PER_CLIENT) byKey.delete(byKey.keys().next().value as string);
  byKey.set(key, result);
  return result;
}

/** The JSON of `value` as a cache key, or `undefined` when it has none (a BigInt, a cycle): then nothing is reused. */
export function contentKey(kind: string, project: string, value: unknown): string | undefined {
  try {
    return `${kind}\n${project}\n${JSON.stringify(value)}`;
  } catch {
    return undefined;
  }
}
