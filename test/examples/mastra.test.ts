// @weft-test: runtime node22
// Runs examples/mastra.ts (a Mastra agent on @ai-sdk/openai against the loopback fake, WeftExporter as exporter and bridge) and checks its tree, usage and cost. Node >= 22 (Mastra's engines).
import { describe, expect, it } from 'vitest';
import { runExample } from 'weft-test-kit/examples.js';

describe('examples/mastra.ts', () => {
  it('prints the agent run, the generation, the tool call and the op in it as one tree, usage once and the cost at the root', async () => {
    const { code, stdout, stderr } = await runExample('examples/mastra.ts', [], { OPENAI_API_KEY: undefined });
    expect(code, stderr).toBe(0);
    const tree = stdout.split('\n').filter((l) => /^\s*✓ /.test(l)).map((l) => l.trim().split(/\s+/)[1]);
    expect(tree).toEqual(['ask', 'mastra.agent.weather-agent', 'mastra.model_generation', 'mastra.tool.get_weather', 'lookup_forecast']);
    expect(stdout).toMatch(/usage gpt-4o-mini-2024-07-18: \{"prompt_tokens":2400,"completion_tokens":160,.*"requests":2.*"cache_read_input_tokens":400/);
    // the same two requests as examples/openai-agent.ts: 2000 x $0.15/M + 400 cached x $0.075/M + 160 x $0.60/M
    expect(stdout).toContain('cost gpt-4o-mini-2024-07-18: $0.000426');
  });
});
