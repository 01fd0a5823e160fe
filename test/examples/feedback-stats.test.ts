// Runs examples/feedback-stats.ts as a child process and checks its report against figures computed here.
import * as ss from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { type ExampleRun, runExample } from 'weft-test-kit/examples.js';

const TIMEOUT_MS = 60_000;

const runFeedbackStats = (args: string[]): Promise<ExampleRun> => runExample('examples/feedback-stats.ts', args);

describe('examples/feedback-stats.ts', () => {
  it('records 24 ratings and prints buckets in the zone and window figures that match the ratings', async () => {
    const run = await runFeedbackStats(['Asia/Kolkata']);
    expect(run.code, run.stderr).toBe(0);
    const scores = Array.from({ length: 24 }, (_, i) => 1 + ((i * 7) % 5));
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^Recorded 24 feedback records at http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines[1]).toMatch(/\(Asia\/Kolkata, buckets of 5 min\)$/);
    const buckets = lines.filter((l) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000\+05:30 /.test(l));
    expect(buckets.length).toBeGreaterThanOrEqual(1);
    expect(buckets.reduce((n, l) => n + Number(l.split(/\s+/)[1]), 0)).toBe(24);
    const up = scores.filter((s) => s >= 3).length;
    expect(run.stdout).toContain(
      `Window: 24 scores, avg ${ss.mean(scores).toFixed(2)}, min ${ss.min(scores)}, max ${ss.max(scores)}, median ${ss.median(scores)}, p90 `,
    );
    expect(run.stdout).toContain(`Window: thumbs up ${up}, down ${24 - up}; labelled 8`);
  }, TIMEOUT_MS + 5_000);
});
