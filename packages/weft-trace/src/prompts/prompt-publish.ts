/**
 * `publishPrompt` and `getPrompt`: prompt versions through the objects API (`/obj/create`, `/obj/read`), as datasets
 * are published; `getPrompt` keeps what it read for a TTL and serves it while the server is down.
 * @module
 */
import type { Client } from '../api/client.js';
import { APIConnectionError, APIError, NotFoundError } from '../api/core/api-errors.js';
import { objectRef } from '../eval/refs.js';
import { readPromptLabels } from './prompt-labels.js';
import { definitionOf, promptValue, type PromptDefinition } from './prompt-value.js';
import { type DefinitionVariables, Prompt } from './prompt.js';

/** Where prompts are published: the client and the project. */
export interface PromptTarget {
  client: Client;
  /** `<entity>/<project>`. */
  project: string;
}

/**
 * Publishes `def` as a version of prompt `def.name` (`POST /obj/create`, class `Prompt`); the same content again is
 * the same version (same digest), whoever publishes it (the SDK, `weft prompts push`).
 * @returns the published prompt, its variables typed from a literal `def`.
 * @throws {TypeError} when `def` is not a valid prompt. @throws {APIError} (or a subclass) when the server refuses or is unreachable.
 */
export async function publishPrompt<const D extends PromptDefinition>(def: D, target: PromptTarget): Promise<Prompt<DefinitionVariables<D>>> {
  const val = promptValue(def);
  const { digest } = await target.client.objects.create({ obj: { project_id: target.project, object_id: val.name, val } });
  return new Prompt(def, { ref: objectRef(target.project, val.name, digest), digest });
}

/** Options of {@link getPrompt}: a version or a label (neither: the latest version). */
export interface GetPromptOptions extends PromptTarget {
  /** A digest, `v<N>` (0-based) or `latest`. @defaultValue `latest` */
  version?: string;
  /** A label (`production`, ...): the version it points at. Not with `version`. */
  label?: string;
  /** How long a copy read from the server is used without asking again, in ms. @defaultValue 60000 */
  ttlMs?: number;
  /**
   * The prompt to use when the server cannot be reached and no copy was read before (a prompt bundled with the app;
   * its `format()` marks no ref). Not used when the server answers that the prompt does not exist.
   */
  fallback?: PromptDefinition;
}

/** The default of {@link GetPromptOptions.ttlMs}: one minute. */
export const DEFAULT_PROMPT_TTL_MS = 60_000;

interface Cached { prompt: Prompt; at: number }
/** Copies read, by base URL, project, name and selector (process-wide: every client of a server shares them). */
const cache = new Map<string, Cached>();
const MAX_CACHED = 1_000;

async function fetchPrompt(name: string, opts: GetPromptOptions): Promise<Prompt> {
  const { client, project } = opts;
  let digest = opts.version ?? 'latest';
  if (opts.label !== undefined) {
    const target = (await readPromptLabels(client, project, name)).labels[opts.label];
    if (target === undefined) throw new NotFoundError({ status: 404, message: `prompt "${name}" has no label "${opts.label}"` });
    digest = target;
  }
  const { obj } = await client.objects.read({ project_id: project, object_id: name, digest });
  return new Prompt(definitionOf(obj.val, name), { ref: objectRef(project, name, obj.digest), digest: obj.digest, index: obj.version_index });
}

/**
 * Prompt `name` at a version or label. A copy read less than `ttlMs` ago is answered without a request; past that it
 * is read again, and when the server cannot answer (unreachable, 5xx, timeout) the last copy is answered however
 * old, else `fallback`. `V` names the variables (the server's text is not known to TypeScript).
 * @throws {TypeError} when both `version` and `label` are given.
 * @throws {NotFoundError} when the prompt, version or label does not exist, {TypeError} when the object is not a
 *   prompt, {APIError} for another 4xx (no copy or fallback is used for these: the server answered).
 * @throws {APIError} (or a subclass) when the server cannot answer and there is no copy and no fallback.
 */
export async function getPrompt<V extends string = string>(name: string, opts: GetPromptOptions): Promise<Prompt<V>> {
  if (opts.version !== undefined && opts.label !== undefined) throw new TypeError('getPrompt: give version or label, not both');
  const key = [opts.client.baseUrl, opts.project, name, opts.label !== undefined ? `label:${opts.label}` : `version:${opts.version ?? 'latest'}`].join('\n');
  const hit = cache.get(key);
  const now = Date.now();
  if (hit && now - hit.at < (opts.ttlMs ?? DEFAULT_PROMPT_TTL_MS)) return hit.prompt as Prompt<V>;
  try {
    const prompt = await fetchPrompt(name, opts);
    cache.delete(key);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, { prompt, at: now });
    return prompt as Prompt<V>;
  } catch (err) {
    if (!serverCannotAnswer(err)) throw err;
    if (hit) return hit.prompt as Prompt<V>;
    if (opts.fallback) return new Prompt(opts.fallback) as Prompt<V>;
    throw err;
  }
}

/** The server could not be reached, timed out or failed (5xx): what a kept copy or the fallback stands in for. */
function serverCannotAnswer(err: unknown): boolean {
  return err instanceof APIConnectionError || (err instanceof APIError && (err.status ?? 0) >= 500);
}

/** Forgets every copy `getPrompt` kept (tests; a process that must read afresh). */
export function clearPromptCache(): void {
  cache.clear();
}
