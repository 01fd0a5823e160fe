/**
 * The payload a feedback item is stored with, as Weave's trace server stores it (`process_feedback_payload` in
 * `weave/trace_server/feedback.py`): a reaction's emoji must be exactly one emoji and gains its name (`alias`,
 * `:thumbs_up:`), its skin-tone-free form (`detoned`) and that form's name (`detoned_alias`); a payload whose
 * JSON text is over 1 MiB is refused.
 * @module
 */
import { createRequire } from 'node:module';
import { MAX_FEEDBACK_PAYLOAD_BYTES, REACTION_FEEDBACK_TYPE } from 'weft-trace/wire';
import { QueryError } from '../db/query-error.js';

let names: Record<string, { slug: string }> | undefined;
/** Unicode's emoji list (`unicode-emoji-json`, 390 KB of JSON), read at the first reaction. */
function emojiNames(): Record<string, { slug: string }> {
  // a JSON module needs an import attribute the bundler drops, so require it, from this file: `__filename` in the
  // CommonJS build, `import.meta.url` in ESM (a bundler's `require` shim throws there)
  const from = typeof __filename === 'string' ? __filename : import.meta.url;
  return (names ??= createRequire(from)('unicode-emoji-json/data-by-emoji.json') as Record<string, { slug: string }>);
}
/** The five Fitzpatrick skin tone modifiers (U+1F3FB to U+1F3FF) and the names Unicode gives them. */
const TONES: Record<string, string> = {
  '\u{1F3FB}': 'light_skin_tone',
  '\u{1F3FC}': 'medium-light_skin_tone',
  '\u{1F3FD}': 'medium_skin_tone',
  '\u{1F3FE}': 'medium-dark_skin_tone',
  '\u{1F3FF}': 'dark_skin_tone',
};
const TONE_MARKS = /[\u{1F3FB}-\u{1F3FF}]/gu;
const VARIATION_SELECTOR = /\uFE0F/g;

/** The emoji in `text` with its skin tone modifiers removed (Weave's `detone_emojis`). */
export function detone(text: string): string {
  return text.replace(TONE_MARKS, '');
}

/**
 * `:<CLDR short name>:` of one emoji, as Python's `emoji.demojize` writes it (`👍` → `:thumbs_up:`, `👍🏽` →
 * `:thumbs_up_medium_skin_tone:`); the emoji itself when Unicode's list does not name it.
 */
export function emojiAlias(emoji: string): string {
  const tones = emoji.match(TONE_MARKS) ?? [];
  const base = detone(emoji);
  const all = emojiNames();
  const entry = all[base] ?? all[base.replace(VARIATION_SELECTOR, '')] ?? all[`${base}\uFE0F`];
  if (!entry) return emoji;
  return `:${[entry.slug, ...tones.map((t) => TONES[t]!)].join('_')}:`;
}

/** Unicode's recommended emoji, each sequence whole (joined by ZWJ, a flag, a toned emoji); the `v` flag (ES2024). */
const RGI_EMOJI = new RegExp('\\p{RGI_Emoji}', 'gv');

/** How many emoji `text` holds (a sequence joined by ZWJ, a flag, a toned emoji: one each). */
function emojiCount(text: string): number {
  return [...text.matchAll(RGI_EMOJI)].length;
}

/**
 * The payload to store for one item.
 *
 * @param item - the validated item (its `feedback_type` and `payload`).
 * @param loc - where the item sits in the request body (`["batch", "0"]`, or `[]` for `/feedback/create`).
 * @returns the payload, with the reaction fields added for `wandb.reaction.1`.
 * @throws QueryError (→ 422) for a reaction that is not exactly one emoji, or a payload over 1 MiB of JSON.
 */
export function storedPayload(item: { feedback_type: string; payload: Record<string, unknown> }, loc: string[]): Record<string, unknown> {
  let payload = item.payload;
  if (item.feedback_type === REACTION_FEEDBACK_TYPE) {
    const emoji = String(payload['emoji']);
    if (emojiCount(emoji) !== 1) throw new QueryError([...loc, 'payload', 'emoji'], 'Value of emoji key in payload must be exactly one emoji');
    const detoned = detone(emoji);
    payload = { ...payload, alias: emojiAlias(emoji), detoned, detoned_alias: emojiAlias(detoned) };
  }
  const bytes = Buffer.byteLength(JSON.stringify(payload));
  if (bytes > MAX_FEEDBACK_PAYLOAD_BYTES) {
    throw new QueryError([...loc, 'payload'], `Feedback payload too large: ${bytes} bytes of JSON, at most ${MAX_FEEDBACK_PAYLOAD_BYTES}`);
  }
  return payload;
}

/** Each item of a batch with its stored payload ({@link storedPayload}); loc `["batch", i]`. */
export function withStoredPayloads<T extends { feedback_type: string; payload: Record<string, unknown> }>(batch: readonly T[]): T[] {
  return batch.map((item, i) => ({ ...item, payload: storedPayload(item, ['batch', String(i)]) }));
}
