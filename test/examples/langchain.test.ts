// Runs examples/langchain.ts (a LangGraph graph with registerWeftTracer, its chat model over a wrapped OpenAI client at the loopback fake) and checks its tree and cost once.
import { expect, it } from 'vitest';
import { runExample } from 'weft-test-kit/examples.js';

it('examples/langchain.ts prints the graph, its nodes, the chat model run with the OpenAI request under it, and the usage and cost once', async () => {
  const { code, stdout, stderr } = await runExample('examples/langchain.ts', [], { OPENAI_API_KEY: undefined });
  expect(code, stderr).toBe(0);
  const tree = stdout.split('\n').filter((l) => /^\s*✓ /.test(l)).map((l) => l.trimEnd().replace(/\s+\S+ ms$|\s+<1 ms$/, ''));
  expect(tree).toEqual([
    '✓ answer',
    '  ✓ langchain.chain.LangGraph',
    '    ✓ langgraph.node.write',
    '      ✓ langchain.chat_model.OpenAIChat',
    '        ✓ openai.chat.completions.create',
    '    ✓ langgraph.node.review',
    '      ✓ count_words',
  ]);
  expect(stdout).toMatch(/usage gpt-4o-mini-2024-07-18: \{"prompt_tokens":1200,"completion_tokens":80,"total_tokens":1280,"requests":1,/);
  // gpt-4o-mini: 1000 x $0.15/M + 200 cached x $0.075/M + 80 x $0.60/M, once
  expect(stdout).toContain('cost gpt-4o-mini-2024-07-18: $0.000213');
});
