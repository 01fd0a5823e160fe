// Runs examples/google-genai.ts (generateContent, a stream and a chat turn on the real @google/genai against the loopback fake) and checks its trace, usage and cost.
import { expect, it } from 'vitest';
import { runExample } from 'weft-test-kit/examples.js';

it('examples/google-genai.ts prints the three model calls under the op, usage once per request and the cost at the root', async () => {
  const { code, stdout, stderr } = await runExample('examples/google-genai.ts', [], { GEMINI_API_KEY: undefined });
  expect(code, stderr).toBe(0);
  const tree = stdout.split('\n').filter((l) => /^\s*✓ /.test(l)).map((l) => l.trim().split(/\s+/)[1]);
  expect(tree).toEqual(['explain', 'google_genai.models.generateContent', 'google_genai.models.generateContentStream', 'google_genai.chats.sendMessage']);
  expect(stdout).toContain('usage gemini-2.5-flash: {"prompt_tokens":3600,"completion_tokens":210,"total_tokens":3810,"requests":3,');
  // gemini-2.5-flash: 3 x (1000 x $0.30/M + 200 cached x $0.03/M + 70 x $2.50/M)
  expect(stdout).toContain('cost gemini-2.5-flash: $0.001443 (prompt $0.000918, cached part $0.000018, completion $0.000525)');
});
