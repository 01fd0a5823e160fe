// The OTel examples run as child processes against their own server: an undici request nests under its op; a Vercel AI SDK call shows with its usage.
import { describe, expect, it } from 'vitest';
import { runExample } from 'weft-test-kit/examples.js';

describe('OTel examples', () => {
  it('examples/otel-http.ts: each fetch() shows as a GET call under its weather op', async () => {
    const run = await runExample('examples/otel-http.ts');
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.code).toBe(0);
    const tree = run.stdout.split('\n').filter((l) => /✓/.test(l)).map((l) => l.replace(/\s+\d+ ms$/, '').trimEnd());
    expect(tree).toEqual(['✓ plan', '  ✓ weather', '    ✓ GET', '  ✓ weather', '    ✓ GET']);
  }, 90_000);

  it('examples/otel-vercel-ai.ts: generateText spans nest under the op, with inputs, output and usage', async () => {
    const run = await runExample('examples/otel-vercel-ai.ts');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('answer: 4');
    const doGenerate = run.stdout.split('\n').find((l) => l.startsWith('ai.generateText.doGenerate:'));
    expect(doGenerate).toContain('{"role":"user","content":"What is 2+2?"}');
    expect(doGenerate).toContain('-> output {"messages":[{"role":"assistant","content":"4","finish_reason":"stop"}]}');
    expect(doGenerate).toContain('usage {"tiny-model":{"prompt_tokens":14,"completion_tokens":1,"total_tokens":15,"requests":1}}');
    const tree = run.stdout.split('\n').filter((l) => /✓/.test(l)).map((l) => l.replace(/\s+\d+ ms$/, '').trimEnd());
    expect(tree).toEqual(['✓ answer', '  ✓ ai.generateText', '    ✓ ai.generateText.doGenerate']);
  }, 90_000);
});
