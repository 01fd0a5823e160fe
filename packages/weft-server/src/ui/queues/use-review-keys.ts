/**
 * The review screen's key handler (keys: review-keys.ts): on the window, ignored while a text box has the focus
 * (there, Escape leaves it and Ctrl/⌘+Enter submits), and while a modifier key is held.
 * @module
 */
import { useEffect, useRef } from 'preact/hooks';
import type { RefObject } from 'preact';
import type { Field, Values } from './answer-fields';
import { actionOf, labelKeys, scoreOfDigit } from './review-keys';

export interface ReviewKeyTargets {
  fields: readonly Field[];
  /** The values as of the last key (not of the last render). */
  values: () => Values;
  active: number;
  root: RefObject<HTMLElement | null>;
  setValue: (ref: string, value: unknown) => void;
  setActive: (index: number) => void;
  next: () => void;
  previous: () => void;
  submit: () => void;
  skip: () => void;
}

/** The field a key of `type` acts on: the active one when of that type, else the first of that type. */
function target(t: ReviewKeyTargets, ok: (f: Field) => boolean): number {
  const a = t.fields[t.active];
  return a && ok(a) ? t.active : t.fields.findIndex(ok);
}

/** Sets field `i` from the keyboard, then moves to the next field (a text field keeps the focus where it is). */
function choose(t: ReviewKeyTargets, i: number, value: unknown): boolean {
  if (i < 0) return false;
  t.setValue(t.fields[i]!.ref, value);
  if (i === t.active && i + 1 < t.fields.length) t.setActive(i + 1);
  return true;
}

/** Handles a key outside text boxes. @returns whether it did something. */
function handle(t: ReviewKeyTargets, e: KeyboardEvent): boolean {
  const action = actionOf(e.key);
  const act = { next: t.next, previous: t.previous, submit: t.submit, skip: t.skip } as Record<string, () => void>;
  if (action && act[action]) return act[action](), true;
  if (action === 'nextField' || action === 'previousField') return t.setActive(t.active + (action === 'nextField' ? 1 : -1)), true;
  if (action === 'up' || action === 'down') return choose(t, target(t, (f) => f.type === 'thumbs'), action === 'up');
  if (action === 'text') {
    const i = target(t, (f) => f.type === 'text');
    const box = i >= 0 ? t.root.current?.querySelectorAll<HTMLTextAreaElement>('.rv-field textarea')[t.fields.slice(0, i).filter((f) => f.type === 'text').length] : undefined;
    return box ? (box.focus(), t.setActive(i), true) : false;
  }
  if (/^[0-9]$/.test(e.key)) {
    const i = target(t, (f) => f.type === 'score');
    const v = i >= 0 ? scoreOfDigit(t.fields[i]!, Number(e.key)) : null;
    return v === null ? false : choose(t, i, v);
  }
  const pref = target(t, (f) => f.type === 'preference');
  const prefValue = { a: 'a', b: 'b', '=': 'tie' }[e.key];
  if (pref >= 0 && prefValue && t.fields[t.active]?.type === 'preference') return choose(t, pref, prefValue);
  const key = e.key.toLowerCase();
  const cat = target(t, (f) => f.type === 'category' && [...labelKeys(f.labels ?? []).values()].includes(key));
  if (cat < 0) return pref >= 0 && prefValue ? choose(t, pref, prefValue) : false;
  const f = t.fields[cat]!;
  const label = [...labelKeys(f.labels ?? [])].find(([, k]) => k === key)![0];
  if (!f.multiple) return choose(t, cat, t.values()[f.ref] === label ? undefined : label);
  const now = (t.values()[f.ref] as string[] | undefined) ?? [];
  const next = now.includes(label) ? now.filter((l) => l !== label) : [...now, label];
  t.setValue(f.ref, next.length ? next : undefined);
  return true;
}

/** Installs the review screen's keys for as long as the screen is shown (the latest targets are always used). */
export function useReviewKeys(targets: ReviewKeyTargets): void {
  const latest = useRef(targets);
  latest.current = targets;
  useEffect(() => {
    const on = (e: KeyboardEvent): void => {
      if (e.altKey || (e.ctrlKey && e.key !== 'Enter') || (e.metaKey && e.key !== 'Enter')) return;
      const el = e.target as HTMLElement | null;
      const typing = el && (el.tagName === 'TEXTAREA' || (el.tagName === 'INPUT' && (el as HTMLInputElement).type !== 'button') || el.tagName === 'SELECT');
      if (typing) {
        if (e.key === 'Escape') el.blur();
        else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) latest.current.submit();
        else return;
        e.preventDefault();
        return;
      }
      if (e.ctrlKey || e.metaKey) return;
      if (el && el.tagName === 'BUTTON' && (e.key === 'Enter' || e.key === ' ')) (el as HTMLButtonElement).blur();
      if (handle(latest.current, e)) e.preventDefault();
    };
    addEventListener('keydown', on);
    return () => removeEventListener('keydown', on);
  }, []);
}
