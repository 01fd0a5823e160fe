/**
 * The overview of a project: traces, error rate, latency p50 / p95, tokens and cost over a chosen window, as totals
 * and over time, optionally split by root op or model; computed by the server (`/weft/calls/overview`), drawn with
 * uPlot. The window and split live in the URL. While the server's rollup job catches up, an answer that left hours out
 * is said to be low and asked again (overview-catch-up.tsx).
 * @module
 */
import { useMemo } from 'preact/hooks';
import { duration, usd } from '../format';
import { href } from '../route';
import { type OverviewBucket, type OverviewFigures, type Split, SPLITS, WINDOWS } from './overview-api';
import { PendingNotice, useCaughtUpOverview } from './overview-catch-up';
import { type ChartSeries, OverviewChart } from './overview-chart';
import { MonitorCharts } from './monitor-charts';
import { LoadStatus } from '../load-status';

const SPLIT_NAMES: Record<Split, string> = { '': 'no split', op_name: 'by op', model: 'by model' };

function Totals({ t }: { t: OverviewFigures }) {
  const items: [string, string, string][] = [
    ['calls', 'traces', String(t.calls)],
    ['errors', 'error rate', t.calls > 0 ? `${((t.errors / t.calls) * 100).toFixed(1)}%` : '—'],
    ['p50', 'latency p50', t.latency_p50_ms === null ? '—' : duration(t.latency_p50_ms)],
    ['p95', 'latency p95', t.latency_p95_ms === null ? '—' : duration(t.latency_p95_ms)],
    ['tokens', 'tokens in / out', `${t.input_tokens} / ${t.output_tokens}`],
    ['cost', 'cost', t.cost_usd === null ? '—' : usd(t.cost_usd)],
  ];
  return (
    <div class="ov-totals">
      {items.map(([k, label, v]) => <div key={k} class="ov-total" data-total={k}><div class="muted">{label}</div><div class="ov-value">{v}</div></div>)}
    </div>
  );
}

type Pick = (b: OverviewBucket) => number | null;
/** Each chart: its title, its value per bucket, and the unit written before its axis labels. */
const CHARTS: [string, Pick, string?][] = [
  ['traces', (b) => b.calls],
  ['errors', (b) => b.errors],
  ['latency p95 (ms)', (b) => b.latency_p95_ms],
  ['tokens (in + out)', (b) => b.input_tokens + b.output_tokens],
  ['cost (USD)', (b) => b.cost_usd, '$'],
];

export function OverviewPage({ project, q, onError }: { project: string; q?: Record<string, string>; onError: (e: unknown) => void }) {
  const window = q?.['window'] && WINDOWS[q['window']] ? q['window'] : '24h';
  const split = (SPLITS as readonly string[]).includes(q?.['by'] ?? '') ? (q?.['by'] as Split) : '';
  const { data, status, pendingHours } = useCaughtUpOverview(project, window, split, onError);

  const go = (next: { window?: string; by?: string }): void => {
    const params = { window, by: split, ...next };
    location.hash = href({ view: 'overview', project, q: Object.fromEntries(Object.entries(params).filter(([, v]) => v)) });
  };

  const charts = useMemo(() => {
    if (!data) return [];
    const xs = data.buckets.map((b) => Date.parse(b.timestamp) / 1000);
    return CHARTS.map(([title, pick, prefix]) => {
      const series: ChartSeries[] = data.groups
        ? data.groups.map((g) => ({ label: g.key, values: g.buckets.map(pick) }))
        : title === 'latency p95 (ms)'
          ? [{ label: 'p50', values: data.buckets.map((b) => b.latency_p50_ms) }, { label: 'p95', values: data.buckets.map(pick) }]
          : [{ label: title, values: data.buckets.map(pick) }];
      return { title, xs, series, prefix };
    });
  }, [data]);

  return (
    <div class="page overview">
      <div class="tracehead">
        <span>overview of {project}</span>
        <select aria-label="window" value={window} onChange={(e) => go({ window: (e.target as HTMLSelectElement).value })}>
          {Object.keys(WINDOWS).map((w) => <option value={w}>last {w}</option>)}
        </select>
        <select aria-label="split" value={split} onChange={(e) => go({ by: (e.target as HTMLSelectElement).value })}>
          {SPLITS.map((s) => <option value={s}>{SPLIT_NAMES[s]}</option>)}
        </select>
        {data ? <span class="muted">buckets of {data.granularity >= 3600 ? `${data.granularity / 3600} h` : `${data.granularity / 60} min`}</span> : null}
      </div>
      {data === null ? <LoadStatus state={status} what={`the overview of the last ${window}`} /> : (
        <div class="ov-body">
          <PendingNotice hours={pendingHours} />
          <Totals t={data.totals} />
          {data.groups ? (
            <table class="ov-groups">
              <thead><tr><th>{split === 'model' ? 'model' : 'op'}</th><th>traces</th><th>errors</th><th>p50</th><th>p95</th><th>tokens</th><th>cost</th></tr></thead>
              <tbody>{data.groups.map((g) => (
                <tr key={g.key}><td>{g.key}</td><td>{g.totals.calls}</td><td>{g.totals.errors}</td>
                  <td>{g.totals.latency_p50_ms === null ? '—' : duration(g.totals.latency_p50_ms)}</td><td>{g.totals.latency_p95_ms === null ? '—' : duration(g.totals.latency_p95_ms)}</td>
                  <td>{g.totals.input_tokens + g.totals.output_tokens}</td><td>{g.totals.cost_usd === null ? '—' : usd(g.totals.cost_usd)}</td></tr>
              ))}</tbody>
            </table>
          ) : null}
          <div class="ov-charts">{charts.map((c) => <OverviewChart key={`${c.title}/${split}`} {...c} />)}</div>
          <MonitorCharts project={project} hours={WINDOWS[window]!.hours} granularity={WINDOWS[window]!.granularity} onError={onError} />
        </div>
      )}
    </div>
  );
}
