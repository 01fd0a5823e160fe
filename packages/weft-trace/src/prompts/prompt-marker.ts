/**
 * The mark a formatted prompt leaves on its messages (a non-enumerable symbol property holding the prompt version's
 * ref), read by the model-call wrappers into the call's `weft.prompt.ref` attribute.
 * @module
 */

/** The symbol a formatted prompt's messages carry (`Symbol.for`, so two copies of the SDK agree). */
export const PROMPT_REF = Symbol.for('weft.prompt.ref');

/** The attribute a model call made from a formatted prompt records the prompt version's ref under. */
export const PROMPT_REF_ATTRIBUTE = 'weft.prompt.ref';

/** Marks `messages` (an array made by `Prompt.format`) with `ref`: non-enumerable, so JSON and spreads never see it. */
export function markPrompt<T extends object>(messages: T, ref: string): T {
  Object.defineProperty(messages, PROMPT_REF, { value: ref, enumerable: false });
  return messages;
}

/** The ref `value` was marked with (one property read), or `undefined`. */
export function promptRefOf(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const ref = (value as { [PROMPT_REF]?: unknown })[PROMPT_REF];
  return typeof ref === 'string' ? ref : undefined;
}
