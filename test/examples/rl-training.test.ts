// Runs examples/rl-training.ts and examples/rl-rollouts.ts as child processes and checks the metrics, training jobs and exports they print.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runExample } from 'weft-test-kit/examples.js';

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

describe('examples/rl-rollouts.ts', () => {
  it('gathers 3 rounds of 4 x 4 captured rollouts, logs them, reads the training job back and exports both formats', async () => {
    const run = await runExample('examples/rl-rollouts.ts');
    expect(run.code, run.stderr).toBe(0);
    const rounds = [...run.stdout.matchAll(/^round (\d): logged (\d+) trajectories in (\d+) groups \(rewards per group ([01 ]+)\)/gm)];
    expect(rounds.map((r) => [r[1], r[2], r[3]])).toEqual([['1', '16', '4'], ['2', '16', '4'], ['3', '16', '4']]);
    const rewards = rounds.flatMap((r) => r[4]!.replace(/ /g, '').split(''));
    expect(rewards).toContain('0');
    expect(rewards).toContain('1');
    expect(run.stdout).toMatch(/Training job [0-9a-f-]{36}: queued, 4 groups, 16 trajectories, created \d{4}-/);
    const files = /Exported 12 groups to (\S+) and 12 fine-tuning examples to (\S+)/.exec(run.stdout);
    expect(files, run.stdout).not.toBeNull();
    const groups = readFileSync(files![1]!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { trajectories: { reward: number; messages_and_choices: unknown[]; tools: unknown[]; metadata: { trace_id: string } }[] });
    expect(groups).toHaveLength(12);
    for (const g of groups) {
      expect(g.trajectories).toHaveLength(4);
      for (const t of g.trajectories) {
        expect(t.messages_and_choices[0]).toEqual({ role: 'system', content: 'Use the calculator, then answer with the number only.' });
        expect(t.tools).toEqual([expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'calculator' }) })]);
        expect(t.metadata.trace_id).toMatch(/^[0-9a-f-]{36}$/);
      }
    }
    for (const line of readFileSync(files![2]!, 'utf8').trim().split('\n')) {
      const ex = JSON.parse(line) as { messages: { role: string; content?: string; tool_calls?: unknown[] }[]; tools: unknown[] };
      expect(Object.keys(ex).sort()).toEqual(['messages', 'tools']);
      expect(ex.messages.map((m) => m.role).slice(0, 2)).toEqual(['system', 'user']);
      expect(ex.messages.at(-1)!.role).toBe('assistant');
      expect(typeof ex.messages.at(-1)!.content).toBe('string');
    }
  }, 70_000);
});
