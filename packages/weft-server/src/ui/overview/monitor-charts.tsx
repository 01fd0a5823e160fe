/**
 * Monitor scores over time (online scoring, `weft monitors add`): one chart per monitor of the project, the average
 * of its feedback per bucket from `/feedback/stats` filtered by the monitor's `trigger_ref`; shown by the overview and
 * feedback pages.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import { MONITOR_PATHS, monitorMetric, monitorTriggerRef } from 'weft-trace/viewer';
import type { Monitor } from 'weft-trace/viewer';
import { feedbackStats, request } from '../api';
import { type ChartSeries, OverviewChart } from './overview-chart';

interface MonitorChart { title: string; xs: number[]; series: ChartSeries[] }

/** The average score of each bucket (null where the bucket holds no score). */
async function chartOf(m: Monitor, start: string, granularity: number | undefined): Promise<MonitorChart> {
  const metric = monitorMetric(m.scorer);
  const stats = await feedbackStats({
    project_id: m.project_id, start, trigger_ref: monitorTriggerRef(m.project_id, m.id), ...(granularity ? { granularity } : {}),
    metrics: [{ ...metric, aggregations: ['avg', 'count'] }],
  });
  const buckets = stats.buckets ?? [];
  const avg = Object.keys(buckets[0] ?? {}).find((k) => k.startsWith('avg_'));
  const count = Object.keys(buckets[0] ?? {}).find((k) => k.startsWith('count_'));
  return {
    title: `monitor ${m.scorer} on ${m.op_name} (sample ${m.sample_rate})`,
    xs: buckets.map((b) => Date.parse(String(b['timestamp'])) / 1000),
    series: [{ label: `avg ${metric.json_path}`, values: buckets.map((b) => (avg && count && b[count] !== 0 ? (b[avg] as number) : null)) }],
  };
}

/** The charts of every monitor of `project` over the last `hours` (nothing when it has none). */
export function MonitorCharts({ project, hours, granularity, onError }: { project: string; hours: number; granularity?: number; onError: (e: unknown) => void }) {
  const [charts, setCharts] = useState<MonitorChart[]>([]);
  useEffect(() => {
    const start = new Date(Date.now() - hours * 3_600_000).toISOString();
    request(MONITOR_PATHS.list, { project_id: project })
      .then(async (res) => ((await res.json()) as { monitors: Monitor[] }).monitors)
      .then((monitors) => Promise.all(monitors.map((m) => chartOf(m, start, granularity))))
      .then(setCharts, onError);
  }, [project, hours, granularity, onError]);
  if (charts.length === 0) return null;
  return (
    <div class="monitor-charts">
      <h3>monitor scores</h3>
      <div class="ov-charts">{charts.map((c) => <OverviewChart key={c.title} {...c} />)}</div>
    </div>
  );
}
