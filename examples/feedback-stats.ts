// Records user feedback on calls, then prints a time-bucketed feedback stats report (POST /feedback/stats).
// Run: npx tsx examples/feedback-stats.ts [IANA time zone, default America/New_York]
import { Client } from '../packages/weft-trace/src/api/client.js';
import type { FeedbackCreateReq, FeedbackStatsRes } from '../packages/weft-trace/src/schema/feedback.js';
import { connectServer } from './local-server.js';

const PROJECT = 'local/feedback-demo';
const LABELS = ['helpful', 'off-topic', 'too long'] as const;

/** Starts 24 calls and rates each: a 1-5 score, thumbs up or down, and (sometimes) a label. */
async function recordFeedback(client: Client): Promise<number> {
  const batch: FeedbackCreateReq[] = [];
  for (let i = 0; i < 24; i++) {
    const { id } = await client.calls.start({
      start: { project_id: PROJECT, op_name: 'answer', started_at: new Date().toISOString(), inputs: { question: `q${i}` }, attributes: {} },
    });
    const score = 1 + ((i * 7) % 5);
    const payload: Record<string, unknown> = { rating: { score }, thumbs_up: score >= 3 };
    if (i % 3 === 0) payload['label'] = LABELS[i % LABELS.length];
    batch.push({ project_id: PROJECT, svc_ref: `svc:///${PROJECT}/call/${id}`, call_ref: `svc:///${PROJECT}/call/${id}`, feedback_type: 'user_rating', payload, creator: 'demo' });
  }
  const { res } = await client.feedback.create({ batch });
  return res.length;
}

const fmt = (v: unknown): string => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(2)) : '—');

/** Renders the report: one line per bucket with feedback, then the whole-window figures. */
export function renderReport(stats: FeedbackStatsRes): string {
  const lines = [
    `Feedback stats ${stats.start} → ${stats.end} (${stats.timezone}, buckets of ${stats.granularity / 60} min)`,
    `${'bucket start'.padEnd(30)} ${'count'.padStart(5)} ${'avg score'.padStart(9)} ${'p90 score'.padStart(9)} ${'thumbs up'.padStart(9)} ${'labels'.padStart(6)}`,
  ];
  for (const b of stats.buckets ?? []) {
    if (b.count === 0) continue;
    lines.push(`${b.timestamp.padEnd(30)} ${fmt(b.count).padStart(5)} ${fmt(b['avg_rating_score']).padStart(9)} ${fmt(b['p90_rating_score']).padStart(9)} ${fmt(b['count_true_thumbs_up']).padStart(9)} ${fmt(b['count_label']).padStart(6)}`);
  }
  const empty = (stats.buckets ?? []).filter((b) => b.count === 0).length;
  lines.push(`(${empty} empty buckets of ${stats.buckets?.length ?? 0} left out)`);
  const score = stats.window_stats?.['rating_score'] ?? {};
  const thumbs = stats.window_stats?.['thumbs_up'] ?? {};
  lines.push(`Window: ${fmt(score['count'])} scores, avg ${fmt(score['avg'])}, min ${fmt(score['min'])}, max ${fmt(score['max'])}, median ${fmt(score['p50'])}, p90 ${fmt(score['p90'])}`);
  lines.push(`Window: thumbs up ${fmt(thumbs['count_true'])}, down ${fmt(thumbs['count_false'])}; labelled ${fmt(stats.window_stats?.['label']?.['count'])}`);
  return lines.join('\n');
}

async function main(): Promise<void> {
  const timezone = process.argv[2] ?? 'America/New_York';
  const server = await connectServer();
  const client = new Client({ baseUrl: server.url });
  try {
    console.log(`Recorded ${await recordFeedback(client)} feedback records at ${server.url}`);
    const stats = await client.feedback.stats({
      project_id: PROJECT,
      start: new Date(Date.now() - 60 * 60_000).toISOString(),
      timezone,
      metrics: [
        { json_path: 'rating.score', aggregations: ['avg', 'min', 'max', 'count'], percentiles: [50, 90] },
        { json_path: 'thumbs_up', value_type: 'boolean' },
        { json_path: 'label', value_type: 'categorical' },
      ],
    });
    console.log(renderReport(stats));
  } finally {
    await client.close();
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
