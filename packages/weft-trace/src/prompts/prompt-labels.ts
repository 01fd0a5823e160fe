/**
 * Prompt labels (`production`, `staging`, any name): a map from label to version digest, moved without a new prompt
 * version. Stored as an object of its own per prompt, `<name>.labels` (class `PromptLabels`), whose value holds the
 * map and the log of every move (who, when, from, to); each move is a new version of that object, so the store keeps
 * the history too. Works on any server with the objects routes (`/obj/create`, `/obj/read`), on both stores.
 * @module
 */
import type { Client } from '../api/client.js';
import { NotFoundError } from '../api/core/api-errors.js';
import { checkLabelName, labelsObjectId, labelsOf, labelsValue, moveLabel, type PromptLabels } from './label-moves.js';

export { type LabelMove, labelsObjectId, type PromptLabels } from './label-moves.js';
export { LABELS_CLASS } from './prompt-classes.js';

/** `prompt`'s labels (none yet: empty). @throws {APIError} (or a subclass) when the server fails or is unreachable. */
export async function readPromptLabels(client: Client, project: string, prompt: string): Promise<PromptLabels> {
  try {
    const { obj } = await client.objects.read({ project_id: project, object_id: labelsObjectId(prompt), digest: 'latest' });
    return labelsOf(obj.val);
  } catch (err) {
    if (err instanceof NotFoundError) return { labels: {}, moves: [] };
    throw err;
  }
}

function whoAmI(): string {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  return env['WEFT_USER'] || env['USER'] || env['USERNAME'] || 'unknown';
}

/** Options of {@link setPromptLabel}. */
export interface SetLabelOptions {
  client: Client;
  /** `<entity>/<project>`. */
  project: string;
  /** Who moves the label, recorded in the move. @defaultValue `$WEFT_USER`, else `$USER`, else `unknown` */
  by?: string;
}

/**
 * Points `label` of prompt `name` at `version` (a digest, `v<N>` or `latest`, resolved to the digest), recording the
 * move. Moving a label to where it already points records nothing. Two movers at the same instant: the last write
 * wins (its log lacks the other's move).
 * @returns the labels after the move.
 * @throws {TypeError} when `label` is not 1-64 letters, digits, `-`, `_` or `.`.
 * @throws {NotFoundError} when the prompt or version does not exist. @throws {APIError} when the server fails.
 */
export async function setPromptLabel(name: string, label: string, version: string, opts: SetLabelOptions): Promise<PromptLabels> {
  checkLabelName(label);
  const { client, project } = opts;
  const { obj } = await client.objects.read({ project_id: project, object_id: name, digest: version });
  const current = await readPromptLabels(client, project, name);
  const next = moveLabel(current, label, obj.digest, opts.by ?? whoAmI(), new Date().toISOString());
  if (next === null) return current;
  await client.objects.create({ obj: { project_id: project, object_id: labelsObjectId(name), val: labelsValue(name, next) } });
  return next;
}
