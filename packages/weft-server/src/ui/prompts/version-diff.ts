/**
 * Two prompt versions' difference, line by line, on their file text (`cli/prompt-file-text.ts`: what `weft prompts
 * pull` writes), so the page shows the diff a review of the files shows. Loaded by the Prompts page when it draws a
 * diff (its own chunk: the YAML writer and the diff are not in the other pages' bundle).
 * @module
 */
import { diffLines } from 'diff';
import type { PromptValue } from 'weft-trace/viewer';
import { promptFileText } from '../../cli/prompt-file-text';

/** One line of the diff: `+` added, `-` removed, ` ` kept. */
export interface DiffLine { mark: '+' | '-' | ' '; text: string }

/** The lines of `from` → `to` (the whole text of both, each line marked); `from` null: `to`'s text, every line kept. */
export function versionDiff(from: PromptValue | null, to: PromptValue): DiffLine[] {
  if (from === null) return promptFileText(to).replace(/\n$/, '').split('\n').map((text) => ({ mark: ' ', text }));
  const out: DiffLine[] = [];
  for (const part of diffLines(promptFileText(from), promptFileText(to))) {
    const mark = part.added ? '+' : part.removed ? '-' : ' ';
    for (const text of part.value.replace(/\n$/, '').split('\n')) out.push({ mark, text });
  }
  return out;
}
