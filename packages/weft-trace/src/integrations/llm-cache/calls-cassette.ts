/**
 * `weft calls cassette`'s core: the model calls under a call (or in a trace) as the lines of a `WEFT_LLM_CACHE` cassette, and the calls that have none with the reason.
 * @module
 */
import { Cassette, type CassetteEntry } from './cassette.js';
import { exchangeOfCall, type StoredModelCall } from './call-exchange.js';

/** A stored call as this module reads it: a model call's fields and its place in the tree. */
export interface TreeCall extends StoredModelCall {
  trace_id: string;
  parent_id?: string | null | undefined;
}

/** A model call under the root that has no cassette line, and why. */
export interface SkippedCall {
  call_id: string;
  op_name: string;
  reason: string;
}

/** What {@link cassetteOfCalls} found: the lines (one per distinct request, in call start order) and the model calls left out. */
export interface CallsCassette {
  entries: CassetteEntry[];
  skipped: SkippedCall[];
}

/** `root` and the calls under it, found by `parent_id`. */
function subtree(calls: readonly TreeCall[], root: string): TreeCall[] {
  const children = new Map<string, TreeCall[]>();
  for (const c of calls) if (c.parent_id) (children.get(c.parent_id) ?? children.set(c.parent_id, []).get(c.parent_id)!).push(c);
  const out: TreeCall[] = [];
  const todo = calls.filter((c) => c.id === root);
  while (todo.length > 0) {
    const c = todo.pop()!;
    out.push(c);
    todo.push(...(children.get(c.id) ?? []));
  }
  return out;
}

/**
 * The cassette lines of the model calls (see `exchangeOfCall`) among `calls` (the calls of one trace) under the
 * call `root` (itself included; its id with dashes or without), or of the whole trace when `root` is not a call id
 * among them; in start order. A
 * request made twice with the same key keeps the first answer (a cassette holds one per request); the later call
 * is listed in `skipped` saying so.
 */
export function cassetteOfCalls(calls: readonly TreeCall[], root: string): CallsCassette {
  const bare = (id: string): string => id.replaceAll('-', '').toLowerCase();
  const call = calls.find((c) => bare(c.id) === bare(root));
  const under = call ? subtree(calls, call.id) : [...calls];
  under.sort((a, b) => (a.started_at < b.started_at ? -1 : a.started_at > b.started_at ? 1 : 0));
  const entries: CassetteEntry[] = [];
  const skipped: SkippedCall[] = [];
  const firstOf = new Map<string, string>();
  for (const call of under) {
    const x = exchangeOfCall(call);
    if (x === undefined) continue;
    if ('reason' in x) {
      skipped.push({ call_id: call.id, op_name: call.op_name, reason: x.reason });
      continue;
    }
    const first = firstOf.get(x.entry.key);
    if (first !== undefined) {
      skipped.push({ call_id: call.id, op_name: call.op_name, reason: `it sent the same request as call ${first} (key ${x.entry.key}); a cassette keeps one answer per request, that call's` });
      continue;
    }
    firstOf.set(x.entry.key, call.id);
    entries.push(x.entry);
  }
  return { entries, skipped };
}

/**
 * Adds `entries` to the cassette `file` (created with its folders when missing; a line of the same key replaced),
 * written as `WEFT_LLM_CACHE` writes it: JSONL sorted by key.
 * @throws Error when the file cannot be written (node:fs's error).
 */
export function addToCassette(file: string, entries: readonly CassetteEntry[]): void {
  new Cassette(file).putAll(entries);
}
