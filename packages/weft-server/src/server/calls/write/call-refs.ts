/**
 * Finds the `svc:///...` reference strings inside a JSON value, for the input_refs / output_refs filters, and the files
 * its media references point at (`weft-file:<digest>`), for retention to know which files calls still refer to.
 * @module
 */
import { FILE_REF_PREFIX, MEDIA_MARK, mediaDigestsIn } from '../../../media-ref.js';
import type { StagedCall } from './batch-staging.js';

/** A ref runs until whitespace, a quote, a bracket or a separator; sentence punctuation at its end is dropped. */
const REF = /svc:\/\/\/[^\s"'<>\\,;()[\]{}]+/g;
const TRAILING = /[.:!?]+$/;
/** Stop walking after this many nodes so a huge payload cannot stall an insert. */
const MAX_NODES = 100_000;

/**
 * Collects every distinct `svc:///` ref found in any string of `value` (object values, array items,
 * nested at any depth; a ref may sit inside a longer string).
 *
 * @param value - a JSON-safe value (inputs or output of a call).
 * @returns the refs, deduplicated, in the order first seen.
 */
export function extractRefs(value: unknown): string[] {
  const found = new Set<string>();
  const stack: unknown[] = [value];
  let seen = 0;
  while (stack.length > 0 && seen++ < MAX_NODES) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (v.includes('svc:///')) for (const m of v.match(REF) ?? []) found.add(m.replace(TRAILING, ''));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v !== null && typeof v === 'object') {
      stack.push(...Object.values(v).reverse());
    }
  }
  return [...found];
}

/**
 * Either mark, searched for in one pass: V8's regexp engine skips through the text (a Boyer-Moore lookahead), which
 * measured 0.2-1.0x the time of the one `includes('svc:///')` it replaces, on chat-like JSON of 300 to 20,000 chars.
 */
const ANY_MARK = new RegExp(`svc:///|${MEDIA_MARK.replace(/[.]/g, '\\.')}`);
const SVC_MARK = 'svc:///';

/**
 * The `svc:///` refs of `value` (JSON text `json`), then its files' refs: a text holding neither mark (almost every call)
 * costs one regexp search; one holding a mark is searched once more for the other mark only past the first one found,
 * and walked for what it holds.
 */
function refsOf(value: unknown, json: string | null): string[] {
  const first = json === null ? null : ANY_MARK.exec(json);
  if (first === null) return [];
  const svcFirst = first[0] === SVC_MARK;
  const other = json!.includes(svcFirst ? MEDIA_MARK : SVC_MARK, first.index + first[0].length);
  const refs = svcFirst || other ? extractRefs(value) : [];
  if (!svcFirst || other) for (const digest of mediaDigestsIn(value)) refs.push(FILE_REF_PREFIX + digest);
  return refs;
}

/**
 * The refs of each half a staged call carries (its stored refs of that kind are replaced): none unless its JSON holds
 * `svc:///` or a media reference's `"weft.media"` (one regexp search on the hot path, {@link ANY_MARK}).
 */
export function callRefs(call: StagedCall): [kind: 'input' | 'output', refs: string[]][] {
  const out: [kind: 'input' | 'output', refs: string[]][] = [];
  for (const [kind, value] of [['input', call.inputs], ['output', call.output]] as const) {
    if (value) out.push([kind, refsOf(value.value, value.json)]);
  }
  return out;
}
