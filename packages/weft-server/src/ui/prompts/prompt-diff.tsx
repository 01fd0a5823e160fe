/**
 * Two prompt versions' difference, line by line, on their file text (`prompt-file-text.ts`: what `weft prompts
 * pull` writes), so the page shows the diff a review of the files shows.
 * @module
 */
import { diffLines } from 'diff';
import type { PromptValue } from 'weft-trace/viewer';
import { promptFileText } from '../../cli/prompt-file-text';

/** One line of the diff: `+` added, `-` removed, ` ` kept. */
export interface DiffLine { mark: '+' | '-' | ' '; text: string }

/** The lines of `from` → `to` (the whole text of both, each line marked). */
export function versionDiff(from: PromptValue, to: PromptValue): DiffLine[] {
  const out: DiffLine[] = [];
  for (const part of diffLines(promptFileText(from), promptFileText(to))) {
    const mark = part.added ? '+' : part.removed ? '-' : ' ';
    for (const text of part.value.replace(/\n$/, '').split('\n')) out.push({ mark, text });
  }
  return out;
}

/** The diff drawn: removed lines red, added green; `from` null shows `to` whole (the first version). */
export function PromptDiff({ from, to, fromName, toName }: { from: PromptValue | null; to: PromptValue; fromName: string; toName: string }) {
  const lines = from === null ? promptFileText(to).replace(/\n$/, '').split('\n').map((text): DiffLine => ({ mark: ' ', text })) : versionDiff(from, to);
  const added = lines.filter((l) => l.mark === '+').length;
  const removed = lines.filter((l) => l.mark === '-').length;
  return (
    <div class="pdiff" data-diff={`${fromName}..${toName}`}>
      <div class="muted">{from === null ? `${toName} (the first version)` : `${fromName} → ${toName}: ${added} added, ${removed} removed`}</div>
      <pre>{lines.map((l) => <div class={`dl dl-${l.mark === '+' ? 'add' : l.mark === '-' ? 'del' : 'same'}`} data-mark={l.mark}>{l.mark} {l.text}</div>)}</pre>
    </div>
  );
}
