// Runs examples/rl-training.ts as a child process and checks the metrics and training job it prints.
import { describe, expect, it } from 'vitest';
import { runExample } from '../helpers/examples.js';

/** Parses `  <split> trajectories=N groups=G reward mean=M ...` lines into numbers by key. */
function metrics(stdout: string): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const line of stdout.split('\n')) {
    const m = /^ {2}(train|val|test|overall) +(.*)$/.exec(line);
    if (!m) continue;
    const fields = m[2]!.replace('reward mean=', 'reward_mean=');
    out[m[1]!] = Object.fromEntries([...fields.matchAll(/(\S+)=(\S+)/g)].map(([, k, v]) => [k!, Number(v)]));
  }
  return out;
}

describe('examples/rl-training.ts', () => {
  it('logs train and val groups, prints per-split and overall metrics, and creates a queued training job', async () => {
    const run = await runExample('examples/rl-training.ts');
    expect(run.code, run.stderr).toBe(0);
    const m = metrics(run.stdout);
    expect(Object.keys(m)).toEqual(['train', 'val', 'test', 'overall']);
    expect([m['train']!['trajectories'], m['train']!['groups']]).toEqual([20, 5]);
    expect([m['val']!['trajectories'], m['val']!['groups']]).toEqual([8, 2]);
    expect(m['test']!['trajectories']).toBe(0);
    expect([m['overall']!['trajectories'], m['overall']!['groups']]).toEqual([28, 7]);
    // overall is the trajectory-weighted mean of the splits (printed to 3 decimals)
    const weighted = (key: string) => (m['train']![key]! * 20 + m['val']![key]! * 8) / 28;
    for (const key of ['reward_mean', 'correct', 'abs_error', 'messages']) expect(m['overall']![key]).toBeCloseTo(weighted(key), 2);
    expect(m['train']!['messages']).toBe(3);
    expect(run.stdout).toMatch(/Training job [0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}: queued/);
  }, 70_000);
});
