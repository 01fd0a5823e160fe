// Runs examples/feedback-stats.ts as a child process and checks its report against figures computed here.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as ss from 'simple-statistics';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TIMEOUT_MS = 60_000;

function runExample(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env };
  delete env['WEFT_BASE_URL'];
  return new Promise((resolve) => {
    execFile('npx', ['tsx', 'examples/feedback-stats.ts', ...args], { cwd: REPO_ROOT, env, timeout: TIMEOUT_MS },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }));
  });
}

describe('examples/feedback-stats.ts', () => {
  it('records 24 ratings and prints buckets in the zone and window figures that match the ratings', async () => {
    const run = await runExample(['Asia/Kolkata']);
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
