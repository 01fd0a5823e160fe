// Runs examples/mcp.ts (an agent and an MCP server in two processes on stdio) and checks the one tree it prints.
import { expect, it } from 'vitest';
import { runExample } from 'weft-test-kit/examples.js';

it('examples/mcp.ts: the agent\'s tool call and the server process\'s handler print as one tree', async () => {
  const { code, stdout, stderr } = await runExample('examples/mcp.ts', [], { WEFT_PROJECT: undefined, WEFT_DISABLED: undefined });
  expect(code, stderr).toBe(0);
  expect(stdout).toContain('planTrip -> {"tools":["forecast"],"forecast":"Lisbon: 18°C, light rain"}');
  expect(stdout).toContain('Trace 1/1 ');
  const tree = stdout.split('\n').filter((l) => /^\s*✓ /.test(l)).map((l) => l.replace(/\s+<?\d+ ms$/, ''));
  expect(tree).toEqual(['✓ planTrip', '  ✓ mcp.listTools', '  ✓ mcp.callTool', '    ✓ mcp.server.callTool', '      ✓ lookupForecast']);
}, 65_000);
