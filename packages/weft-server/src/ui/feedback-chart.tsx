/**
 * A chart of `/feedback/stats` for a project: pick the metric (a JSON path into the payload), aggregation,
 * window and time zone; drawn with uPlot.
 * @module
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { valueAxis } from './chart-axis';
import { feedbackStats } from './api';
import { JsonView } from './json-view';
import { href } from './route';
import { MonitorCharts } from './overview/monitor-charts';
import { DONE, LOADING, type LoadState, LoadStatus, reportFailure } from './load-status';

const AGGREGATIONS = ['avg', 'sum', 'min', 'max', 'count'];
const WINDOWS: Record<string, number> = { 'last hour': 1, 'last 24 h': 24, 'last 7 days': 168, 'last 30 days': 720 };

export function FeedbackChart({ project, onError }: { project: string; onError: (e: unknown) => void }) {
  const [form, setForm] = useState({ path: 'score', agg: 'avg', window: 'last 24 h', tz: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC', type: '' });
  const [query, setQuery] = useState(form);
  const [stats, setStats] = useState<Awaited<ReturnType<typeof feedbackStats>> | null>(null);
  const [status, setStatus] = useState<LoadState>(LOADING);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const start = new Date(Date.now() - (WINDOWS[query.window] ?? 24) * 3_600_000).toISOString();
    setStatus(LOADING);
    feedbackStats({
      project_id: project,
      start,
      timezone: query.tz,
      ...(query.type ? { feedback_type: query.type } : {}),
      // count too: a bucket without values answers sum and avg 0 (as Weave's server does), drawn as a gap
      metrics: [{ json_path: query.path, value_type: 'numeric', aggregations: query.agg === 'count' ? ['count'] : [query.agg, 'count'] }],
    }).then((s) => { setStats(s); setStatus(DONE); }, (e: unknown) => reportFailure(e, setStatus, onError));
  }, [project, query, onError]);

  useEffect(() => {
    const el = box.current;
    if (!el || !stats?.buckets) return;
    const buckets = stats.buckets;
    const key = Object.keys(buckets[0] ?? {}).find((k) => k.startsWith(`${query.agg}_`));
    const valuesKey = Object.keys(buckets[0] ?? {}).find((k) => k.startsWith('count_'));
    const xs = buckets.map((b) => Date.parse(String(b['timestamp'])) / 1000);
    const ys = buckets.map((b) => (key && typeof b[key] === 'number' && b[valuesKey ?? ''] !== 0 ? (b[key] as number) : null));
    const counts = buckets.map((b) => (typeof b['count'] === 'number' ? (b['count'] as number) : 0));
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 400),
        height: 320,
        series: [{}, { label: key ?? `${query.agg} ${query.path}`, stroke: '#2563eb', spanGaps: true }, { label: 'count', stroke: '#9ca3af', scale: 'count' }],
        axes: [{}, valueAxis(), valueAxis('', { scale: 'count', side: 1 })],
        scales: { count: { auto: true } },
      },
      [xs, ys, counts],
      el,
    );
    return () => plot.destroy();
  }, [stats, query.agg, query.path]);

  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  return (
    <div class="page feedback">
      <div class="tracehead"><a href={href({ view: 'traces', project })}>← traces</a><span>feedback of {project}</span></div>
      <form class="filters" onSubmit={(e) => { e.preventDefault(); setQuery(form); }}>
        <input value={form.path} onInput={set('path')} aria-label="metric json path" placeholder="json path, e.g. score" />
        <select value={form.agg} onChange={set('agg')} aria-label="aggregation">{AGGREGATIONS.map((a) => <option>{a}</option>)}</select>
        <select value={form.window} onChange={set('window')} aria-label="window">{Object.keys(WINDOWS).map((w) => <option>{w}</option>)}</select>
        <input value={form.tz} onInput={set('tz')} aria-label="time zone" />
        <input value={form.type} onInput={set('type')} aria-label="feedback type" placeholder="feedback type (any)" />
        <button type="submit">Show</button>
      </form>
      <LoadStatus state={status} what="feedback statistics" />
      <div ref={box} class="chart" />
      {stats?.window_stats ? <><h3>Over the window</h3><JsonView value={stats.window_stats} /></> : null}
      <MonitorCharts project={project} hours={WINDOWS[query.window] ?? 24} onError={onError} />
    </div>
  );
}
