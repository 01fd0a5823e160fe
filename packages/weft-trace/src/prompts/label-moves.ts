/**
 * Prompt labels as data: where each label points, the log of its moves, and the pure step that moves one (shared
 * by `setPromptLabel` and the viewer's Prompts page, which both store the result as a new version of the
 * `<name>.labels` object).
 * @module
 */
import { weaveClass } from '../eval/refs.js';
import { LABELS_CLASS } from './prompt-classes.js';

/** One move of a label. */
export interface LabelMove {
  label: string;
  /** The digest it pointed at before (`null`: the label is new). */
  from: string | null;
  /** The digest it points at now. */
  to: string;
  /** Who moved it (the `by` option, else `$WEFT_USER`, else `$USER`, else `unknown`). */
  by: string;
  /** When, ISO 8601 UTC. */
  at: string;
}

/** A prompt's labels: where each points, and every move, oldest first. */
export interface PromptLabels {
  labels: Record<string, string>;
  moves: LabelMove[];
}


/** The object id of `prompt`'s labels. */
export function labelsObjectId(prompt: string): string {
  return `${prompt}.labels`;
}

/**
 * Checks a label name: 1-64 letters, digits, `-`, `_` or `.`.
 * @throws {TypeError} saying what was expected and what was given.
 */
export function checkLabelName(label: string): void {
  if (!/^[\w.-]{1,64}$/.test(label)) throw new TypeError(`label: expected 1-64 letters, digits, "-", "_" or ".", got ${JSON.stringify(label)}`);
}

/** The labels a stored `<name>.labels` value holds (copied; a missing part is empty). */
export function labelsOf(val: unknown): PromptLabels {
  const v = (val ?? {}) as Partial<PromptLabels>;
  return { labels: { ...(v.labels ?? {}) }, moves: [...(v.moves ?? [])] };
}

/**
 * The labels after pointing `label` at digest `to`, the move `{label, from, to, by, at}` appended; `null` when the
 * label already points there (nothing to record).
 * @throws {TypeError} when `label` is not 1-64 letters, digits, `-`, `_` or `.`.
 */
export function moveLabel(current: PromptLabels, label: string, to: string, by: string, at: string): PromptLabels | null {
  checkLabelName(label);
  const from = current.labels[label] ?? null;
  if (from === to) return null;
  return { labels: { ...current.labels, [label]: to }, moves: [...current.moves, { label, from, to, by, at }] };
}

/** The value stored as the new version of `prompt`'s labels object (class {@link LABELS_CLASS}). */
export function labelsValue(prompt: string, labels: PromptLabels): Record<string, unknown> {
  return { ...weaveClass(LABELS_CLASS), prompt, ...labels };
}
