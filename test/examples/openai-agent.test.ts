// Runs examples/openai-agent.ts (a tool-calling loop on the real openai SDK against the loopback fake) and checks its trace, usage and cost.
import { describe, expect, it } from 'vitest';
import { runExample } from 'weft-test-kit/examples.js';

describe('examples/openai-agent.ts', () => {
  it('prints the model calls and the tool call under the agent, usage per model and the cost at the root', async () => {
    const env = { ...process.env };
    delete process.env['OPENAI_API_KEY'];
    try {
      const { code, stdout, stderr } = await runExample('examples/openai-agent.ts');
      expect(code, stderr).toBe(0);
      const tree = stdout.split('\n').filter((l) => /^\s*✓ /.test(l)).map((l) => l.trim().split(/\s+/)[1]);
      expect(tree).toEqual(['agent', 'openai.chat.completions.create', 'get_weather', 'openai.chat.completions.create']);
      expect(stdout).toMatch(/usage gpt-4o-mini-2024-07-18: \{"prompt_tokens":2400,"completion_tokens":160,.*"requests":2.*"cache_read_input_tokens":400/);
      // gpt-4o-mini: 2000 x $0.15/M + 400 cached x $0.075/M + 160 x $0.60/M
      expect(stdout).toContain('cost gpt-4o-mini-2024-07-18: $0.000426 (prompt $0.000330, cached part $0.000030, completion $0.000096)');
    } finally {
      process.env = env;
    }
  });
});
