/**
 * A prompt's versions, newest first, side by side: when, the labels pointing at each, and its calls' figures
 * (count, median and mean latency, cost, thumbs, score means); a row picks the version shown below.
 * @module
 */
import type { PromptLabels } from 'weft-trace/viewer';
import { duration, fmt, usd } from '../format';
import { time } from '../time';
import type { PromptVersion } from './prompts-api';
import type { VersionStats } from './version-stats';

export interface VersionsTableProps {
  versions: readonly PromptVersion[];
  labels: PromptLabels;
  stats: ReadonlyMap<string, VersionStats>;
  selected: string;
  onSelect: (digest: string) => void;
}

/** The labels pointing at `digest`. */
export const labelsAt = (labels: PromptLabels, digest: string): string[] => Object.entries(labels.labels).filter(([, d]) => d === digest).map(([l]) => l).sort();

export function VersionsTable({ versions, labels, stats, selected, onSelect }: VersionsTableProps) {
  const scoreNames = [...new Set([...stats.values()].flatMap((s) => Object.keys(s.scores)))].sort();
  return (
    <table class="ptable versions">
      <thead><tr>
        <th>version</th><th>digest</th><th>created</th><th>model</th><th>labels</th><th class="num">calls</th><th class="num">p50 latency</th><th class="num">mean latency</th><th class="num">cost</th><th class="num">feedback</th>
        {scoreNames.map((s) => <th class="num">{s}</th>)}
      </tr></thead>
      <tbody>{versions.map((v) => {
        const s = stats.get(v.ref);
        return (
          <tr key={v.digest} data-version={`v${v.index}`} class={v.digest === selected ? 'picked' : ''} onClick={() => onSelect(v.digest)}>
            <td><button class="link" aria-label={`version v${v.index}`}>v{v.index}</button>{v.isLatest ? <span class="muted"> latest</span> : null}</td>
            <td><code title={v.digest}>{v.digest.slice(0, 10)}</code></td>
            <td>{time(v.createdAt)}</td>
            <td>{v.val.model ?? '—'}</td>
            <td>{labelsAt(labels, v.digest).map((l) => <span class="plabel" data-label={l}>{l}</span>)}</td>
            <td class="num" data-col="calls">{s?.calls ?? 0}</td>
            <td class="num" data-col="p50">{s?.p50Ms != null ? duration(s.p50Ms) : '—'}</td>
            <td class="num" data-col="mean">{s?.meanMs != null ? duration(s.meanMs) : '—'}</td>
            <td class="num" data-col="cost">{s?.costUsd != null ? usd(s.costUsd) : '—'}</td>
            <td class="num" data-col="feedback">{s && s.up + s.down > 0 ? `▲ ${s.up} ▼ ${s.down}` : '—'}</td>
            {scoreNames.map((n) => <td class="num" data-score={n}>{fmt(s?.scores[n])}</td>)}
          </tr>
        );
      })}</tbody>
    </table>
  );
}
