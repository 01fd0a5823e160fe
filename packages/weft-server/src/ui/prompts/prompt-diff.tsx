/**
 * A prompt version's diff from another, drawn: removed lines red, added green; with no other, its whole text. The
 * diff is computed by `version-diff.ts`, loaded when first drawn.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import type { PromptValue } from 'weft-trace/viewer';
import type { DiffLine } from './version-diff';

export function PromptDiff({ from, to, fromName, toName }: { from: PromptValue | null; to: PromptValue; fromName: string; toName: string }) {
  const [lines, setLines] = useState<DiffLine[] | null>(null);
  useEffect(() => {
    let live = true;
    setLines(null);
    void import('./version-diff').then((m) => { if (live) setLines(m.versionDiff(from, to)); });
    return () => { live = false; };
  }, [from, to]);
  const added = lines?.filter((l) => l.mark === '+').length ?? 0;
  const removed = lines?.filter((l) => l.mark === '-').length ?? 0;
  return (
    <div class="pdiff" data-diff={`${fromName}..${toName}`} data-ready={lines !== null}>
      <div class="muted">{from === null ? `${toName} (the first version)` : `${fromName} → ${toName}: ${added} added, ${removed} removed`}</div>
      <pre>{(lines ?? []).map((l) => <div class={`dl dl-${l.mark === '+' ? 'add' : l.mark === '-' ? 'del' : 'same'}`} data-mark={l.mark}>{l.mark} {l.text}</div>)}</pre>
    </div>
  );
}
