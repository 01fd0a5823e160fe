/**
 * The Prompts page's reads and its one write: prompts and their versions (`/objs/query`, class `Prompt`), a prompt's
 * labels (`/obj/read` of `<name>.labels`), a label moved (a new version of that object, `/obj/create`, as
 * `setPromptLabel` stores it), and the calls made from the versions (`/calls/stream_query` on `weft.prompt.ref`).
 * @module
 */
import { labelsObjectId, labelsOf, labelsValue, moveLabel, objectRef, PROMPT_CLASS, PROMPT_REF_ATTRIBUTE, type PromptLabels, type PromptValue } from 'weft-trace/viewer';
import { type CallRecord, request, streamQuery } from '../api';

/** One stored version of a prompt. */
export interface PromptVersion {
  name: string;
  digest: string;
  /** 0-based, oldest first (`v0`, `v1`, ...). */
  index: number;
  createdAt: string;
  isLatest: boolean;
  val: PromptValue;
  /** `weave:///<project>/object/<name>:<digest>`: what a call made from it records as `weft.prompt.ref`. */
  ref: string;
}

interface ObjRow { object_id: string; digest: string; version_index: number; created_at: string; is_latest: number; val: unknown }

const versionOf = (project: string, o: ObjRow): PromptVersion => ({
  name: o.object_id, digest: o.digest, index: o.version_index, createdAt: o.created_at, isLatest: o.is_latest === 1, val: o.val as PromptValue, ref: objectRef(project, o.object_id, o.digest),
});

async function queryObjs(body: Record<string, unknown>, signal?: AbortSignal): Promise<ObjRow[]> {
  const res = await request('/objs/query', body, signal);
  return ((await res.json()) as { objs: ObjRow[] }).objs;
}

/** The project's prompts: the latest version of each, by name. */
export async function listPrompts(project: string, signal?: AbortSignal): Promise<PromptVersion[]> {
  const objs = await queryObjs({ project_id: project, filter: { base_object_classes: [PROMPT_CLASS], latest_only: true }, sort_by: [{ field: 'object_id', direction: 'asc' }] }, signal);
  return objs.map((o) => versionOf(project, o));
}

/** Every version of prompt `name`, newest first. */
export async function promptVersions(project: string, name: string, signal?: AbortSignal): Promise<PromptVersion[]> {
  const objs = await queryObjs({ project_id: project, filter: { object_ids: [name], base_object_classes: [PROMPT_CLASS] }, sort_by: [{ field: 'version_index', direction: 'desc' }] }, signal);
  return objs.map((o) => versionOf(project, o));
}

/** Prompt `name`'s labels (none yet: empty). */
export async function promptLabels(project: string, name: string, signal?: AbortSignal): Promise<PromptLabels> {
  try {
    const res = await request('/obj/read', { project_id: project, object_id: labelsObjectId(name), digest: 'latest' }, signal);
    return labelsOf(((await res.json()) as { obj: { val: unknown } }).obj.val);
  } catch (e) {
    if (e instanceof Error && e.message.startsWith('404:')) return { labels: {}, moves: [] };
    throw e;
  }
}

/**
 * Points `label` of prompt `name` at version `digest`, recording the move by `by` (read again first, so the move's
 * `from` is where the label points now). @returns the labels after the move.
 * @throws TypeError for a bad label name; Error with the server's status and detail when it refuses.
 */
export async function movePromptLabel(project: string, name: string, label: string, digest: string, by: string): Promise<PromptLabels> {
  const current = await promptLabels(project, name);
  const next = moveLabel(current, label, digest, by, new Date().toISOString());
  if (next === null) return current;
  await request('/obj/create', { obj: { project_id: project, object_id: labelsObjectId(name), val: labelsValue(name, next) } });
  return next;
}

/** How many calls the page reads for a prompt (newest first, over all its versions). */
export const CALLS_READ = 500;

/** The newest calls made from `versions` (at most {@link CALLS_READ}), with feedback and costs. */
export async function callsOfVersions(project: string, versions: readonly PromptVersion[], signal?: AbortSignal): Promise<CallRecord[]> {
  if (versions.length === 0) return [];
  const refs = versions.map((v) => ({ $literal: v.ref }));
  return streamQuery({
    project_id: project,
    // quoted: the attribute's key holds dots (`weft.prompt.ref`), one key, not a path
    query: { $expr: { $in: [{ $getField: `attributes."${PROMPT_REF_ATTRIBUTE}"` }, refs] } },
    sort_by: [{ field: 'started_at', direction: 'desc' }],
    limit: CALLS_READ,
    columns: ['id', 'trace_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'attributes', 'exception', 'summary'],
    include_costs: true,
    include_feedback: true,
  }, signal);
}

/** The prompt ref a call was made from (`weft.prompt.ref`), if any. */
export function promptRefOfCall(call: CallRecord): string | undefined {
  const ref = (call.attributes as Record<string, unknown> | undefined)?.[PROMPT_REF_ATTRIBUTE];
  return typeof ref === 'string' ? ref : undefined;
}
