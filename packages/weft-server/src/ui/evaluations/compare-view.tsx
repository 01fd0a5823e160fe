/**
 * Runs side by side: per-score deltas from the first (base) run, and per dataset row each run's output and scores, regressions and improvements marked, optionally only the rows that changed.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import { compareRuns, type RowComparison, type RunComparison } from 'weft-trace/viewer';
import type { EvalRun } from 'weft-trace/viewer';
import { fmt } from '../format';
import { loadRows } from './eval-data';

const text = (v: unknown, n = 160): string => {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
};

const MARK = { regressed: '▼ regressed', improved: '▲ improved', changed: '≠ changed', same: '' } as const;

function Delta({ d }: { d: number | null | undefined }) {
  if (d === null || d === undefined) return null;
  const cls = d > 1e-12 ? 'up' : d < -1e-12 ? 'down' : 'flat';
  return <span class={`delta ${cls}`}> ({d > 0 ? '+' : ''}{fmt(d)})</span>;
}

function RowView({ row, runs }: { row: RowComparison; runs: EvalRun[] }) {
  const base = row.runs[0];
  return (
    <tr class={`crow-${row.change}`} data-change={row.change}>
      <td class="example"><span class="mark">{MARK[row.change]}</span> {text(row.example)}</td>
      {runs.map((_, i) => {
        const r = row.runs[i];
        if (!r) return <td class="muted">—</td>;
        return (
          <td>
            <div class="out">{r.failed ? <span class="s-error">failed</span> : text(r.outputs.length === 1 ? r.outputs[0] : r.outputs)}</div>
            <div class="scores">{Object.entries(r.scores).map(([k, v]) => (
              <span class={i > 0 && base && base.scores[k] !== undefined ? (v < base.scores[k]! - 1e-9 ? 'down' : v > base.scores[k]! + 1e-9 ? 'up' : '') : ''}>{k}={fmt(v)} </span>
            ))}</div>
          </td>
        );
      })}
    </tr>
  );
}

/** The comparison of 2 to 4 runs (the first is the base). */
export function CompareView({ project, runs, onError }: { project: string; runs: EvalRun[]; onError: (e: unknown) => void }) {
  const [cmp, setCmp] = useState<RunComparison | null>(null);
  const [onlyChanged, setOnlyChanged] = useState(false);
  useEffect(() => {
    const ctl = new AbortController();
    Promise.all(runs.map((r) => loadRows(project, r.id, ctl.signal))).then((rows) => setCmp(compareRuns(runs, rows)), onError);
    return () => ctl.abort();
  }, [project, runs, onError]);
  if (cmp === null) return <p class="muted">Loading rows…</p>;
  const rows = onlyChanged ? cmp.rows.filter((r) => r.change !== 'same') : cmp.rows;
  const count = (c: RowComparison['change']): number => cmp.rows.filter((r) => r.change === c).length;
  return (
    <div class="compare">
      <h3>Compared to {runs[0]!.name} (base)</h3>
      <table class="deltas">
        <thead><tr><th>score</th>{runs.map((r) => <th class="num">{r.name}</th>)}</tr></thead>
        <tbody>{cmp.scores.map((s) => (
          <tr data-score={s.score}><td>{s.score}</td>{s.means.map((m, i) => <td class="num">{fmt(m)}{i > 0 ? <Delta d={s.deltas[i]} /> : null}</td>)}</tr>
        ))}</tbody>
      </table>
      <div class="listhead">
        <span class="summary">{count('regressed')} regressed, {count('improved')} improved, {count('changed')} changed, {count('same')} same of {cmp.rows.length} rows</span>
        <label><input type="checkbox" checked={onlyChanged} onChange={() => setOnlyChanged(!onlyChanged)} /> only rows that changed</label>
      </div>
      <div class="evaltable">
        <table class="rows">
          <thead><tr><th>example</th>{runs.map((r) => <th>{r.name}</th>)}</tr></thead>
          <tbody>{rows.map((row) => <RowView row={row} runs={runs} />)}</tbody>
        </table>
      </div>
    </div>
  );
}
