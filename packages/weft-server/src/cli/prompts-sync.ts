/**
 * What `weft prompts pull|diff|push` do between a folder of prompt files and a project: pull writes each prompt's
 * latest version; a plan compares each file with the server's latest version by digest; push publishes the files
 * that differ as new versions.
 * @module
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { type Client, PROMPT_CLASS, type PromptDefinition, promptValue, type PromptValue, publishPrompt } from 'weft-trace/client';
import { objectDigest } from '../server/objects/object-digest.js';
import { parsePromptFile, PROMPT_FILE_EXT, promptFileText } from './prompts-files.js';

/** A prompt's latest version on the server, and the version index of each of its digests. */
interface ServerPrompt { value: PromptValue; digest: string; versions: Map<string, number> }

/** The latest version of every prompt of `project`, by name (with every version's digest). */
export async function serverPrompts(client: Client, project: string): Promise<Map<string, ServerPrompt>> {
  const { objs } = await client.objects.query({ project_id: project, filter: { base_object_classes: [PROMPT_CLASS] } });
  const byName = new Map<string, ServerPrompt>();
  for (const o of objs) {
    const known = byName.get(o.object_id);
    const versions = known?.versions ?? new Map<string, number>();
    versions.set(o.digest, o.version_index);
    if (!known || o.version_index > known.versions.get(known.digest)!) byName.set(o.object_id, { value: o.val as PromptValue, digest: o.digest, versions });
  }
  return byName;
}

/** One file written by {@link pullPrompts}. */
export interface Pulled { name: string; file: string; digest: string }

/** Writes `<dir>/<name>.prompt.md` for the latest version of every prompt of `project` (creating `dir`). */
export async function pullPrompts(client: Client, project: string, dir: string): Promise<Pulled[]> {
  await mkdir(dir, { recursive: true });
  const pulled: Pulled[] = [];
  for (const [name, p] of [...(await serverPrompts(client, project))].sort(([a], [b]) => a.localeCompare(b))) {
    const file = path.join(dir, `${name}${PROMPT_FILE_EXT}`);
    await writeFile(file, promptFileText(p.value));
    pulled.push({ name, file, digest: p.digest });
  }
  return pulled;
}

/**
 * What pushing one file would do: `new` (no such prompt yet), `changed` (a new version), `same`, or `earlier`: the
 * file is an earlier version (`v<earlier>`), which the server does not store again (a version is its content), so
 * push leaves it: point a label at it instead (`weft prompts label`).
 */
export interface PlannedPrompt {
  name: string;
  file: string;
  status: 'new' | 'changed' | 'same' | 'earlier';
  /** The version index the file's content has on the server, when it is `earlier`. */
  earlier?: number;
  /** The digest of the file's prompt (the version it is, or would be, on the server). */
  digest: string;
  /** The server's latest version's digest (`null`: no such prompt). */
  serverDigest: string | null;
  /** Unified diff from the server's file text to the file's (empty when `same`). */
  patch: string;
}

/**
 * Each prompt file of `dir` against the server's latest version.
 * @throws {Error} naming the file when one is not a valid prompt file, or two files hold the same prompt name.
 */
export async function planPush(client: Client, project: string, dir: string): Promise<PlannedPrompt[]> {
  const onServer = await serverPrompts(client, project);
  const files = (await readdir(dir)).filter((f) => f.endsWith(PROMPT_FILE_EXT)).sort();
  const plan: PlannedPrompt[] = [];
  for (const f of files) {
    const file = path.join(dir, f);
    const value = promptValue(parsePromptFile(await readFile(file, 'utf8'), file));
    if (plan.some((p) => p.name === value.name)) throw new Error(`${file}: prompt "${value.name}" is also in another file`);
    const digest = objectDigest(value);
    const server = onServer.get(value.name);
    const earlier = server?.digest !== digest ? server?.versions.get(digest) : undefined;
    const status = !server ? 'new' : server.digest === digest ? 'same' : earlier !== undefined ? 'earlier' : 'changed';
    const before = server ? promptFileText(server.value) : '';
    const patch = status === 'same' ? '' : createTwoFilesPatch(`server/${value.name}`, file, before, promptFileText(value), server?.digest ?? '(none)', digest);
    plan.push({ name: value.name, file, status, digest, serverDigest: server?.digest ?? null, patch, ...(earlier !== undefined ? { earlier } : {}) });
  }
  return plan;
}

/**
 * The definitions of every prompt file of `dir`, by name: JSON an app bundles and hands to `getPrompt`'s `fallback`
 * (the SDK reads no YAML).
 * @throws {Error} naming the file when one is not a valid prompt file.
 */
export async function bundlePrompts(dir: string): Promise<Record<string, PromptDefinition>> {
  const bundle: Record<string, PromptDefinition> = {};
  for (const f of (await readdir(dir)).filter((x) => x.endsWith(PROMPT_FILE_EXT)).sort()) {
    const def = parsePromptFile(await readFile(path.join(dir, f), 'utf8'), path.join(dir, f));
    bundle[def.name] = def;
  }
  return bundle;
}

/** Publishes each `new` or `changed` prompt of `plan`. @returns the digests the server answered, by name. */
export async function pushPrompts(client: Client, project: string, plan: PlannedPrompt[]): Promise<Map<string, string>> {
  const pushed = new Map<string, string>();
  for (const p of plan.filter((x) => x.status === 'new' || x.status === 'changed')) {
    const def = parsePromptFile(await readFile(p.file, 'utf8'), p.file);
    const published = await publishPrompt(def, { client, project });
    pushed.set(p.name, published.version!.digest);
  }
  return pushed;
}
