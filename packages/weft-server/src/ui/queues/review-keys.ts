/**
 * The review screen's keyboard, as pure functions: which key does what, the key of each category label, and the
 * score a digit stands for.
 * @module
 */
import type { AnnotationFieldSpec } from 'weft-trace/viewer';

/** Keys with a fixed meaning on the review screen (labels never take them). */
export const REVIEW_KEYS = {
  next: ['j', 'ArrowRight'],
  previous: ['k', 'ArrowLeft'],
  nextField: ['ArrowDown', 'Tab'],
  previousField: ['ArrowUp'],
  up: ['u', '+'],
  down: ['d', '-'],
  skip: ['s'],
  submit: ['Enter'],
  text: ['t'],
  help: ['?'],
} as const;

const RESERVED = new Set<string>(Object.values(REVIEW_KEYS).flat().map((k) => k.toLowerCase()));

/**
 * A key per label: its first letter not taken yet (by the screen or an earlier label), else the first free letter
 * of the alphabet. Labels beyond the free letters get none.
 */
export function labelKeys(labels: readonly string[]): Map<string, string> {
  const taken = new Set(RESERVED);
  const out = new Map<string, string>();
  for (const label of labels) {
    const candidates = [...label.toLowerCase()].filter((ch) => /[a-z]/.test(ch));
    const key = [...candidates, ...'abcdefghijklmnopqrstuvwxyz'].find((ch) => !taken.has(ch));
    if (key === undefined) continue;
    taken.add(key);
    out.set(label, key);
  }
  return out;
}

/** The values of a score field's scale (at most 10 of them), or null when it has no step or more values. */
export function scaleOf(field: AnnotationFieldSpec): number[] | null {
  const { min = 0, max = 1, step } = field;
  if (!step) return null;
  const n = Math.round((max - min) / step) + 1;
  return n <= 10 ? Array.from({ length: n }, (_, i) => Number((min + i * step).toFixed(10))) : null;
}

/** The score a digit stands for: the digit itself when it is on the scale, else the d-th value of the scale (0: the 10th). */
export function scoreOfDigit(field: AnnotationFieldSpec, digit: number): number | null {
  const scale = scaleOf(field);
  const { min = 0, max = 1 } = field;
  if (scale ? scale.includes(digit) : digit >= min && digit <= max) return digit;
  const at = digit === 0 ? 9 : digit - 1;
  return scale?.[at] ?? null;
}

/** What a key does on the review screen, or null. */
export function actionOf(key: string): keyof typeof REVIEW_KEYS | null {
  for (const [action, keys] of Object.entries(REVIEW_KEYS)) if ((keys as readonly string[]).includes(key)) return action as keyof typeof REVIEW_KEYS;
  return null;
}
