// An agent calls a tool of an MCP server running in another process (stdio), both traced by weft: the request carries params._meta.traceparent, so the two processes' calls are one tree (npx tsx examples/mcp.ts).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { init, op, wrapMCPClient, wrapMCPServer } from '../packages/weft-trace/src/index.js';
import { runExample } from './run-example.js';

/** The server process (this file run with `serve`): one tool, traced to the agent's WEFT_BASE_URL and WEFT_PROJECT. */
async function serve(): Promise<void> {
  init({ flushIntervalMs: 100 });
  const lookup = op(async function lookupForecast(city: string) {
    return `${city}: 18°C, light rain`;
  });
  const server = wrapMCPServer(new McpServer({ name: 'weather', version: '1.0.0' }));
  server.registerTool('forecast', { description: 'The weather in a city', inputSchema: { city: z.string() } }, async ({ city }) => ({
    content: [{ type: 'text', text: await lookup(city) }],
  }));
  await server.connect(new StdioServerTransport()); // the process ends when the agent closes its stdin
}

/** The agent: starts the server process, calls its tool inside an op, and prints the tree both processes recorded. */
async function agent(): Promise<void> {
  await runExample('mcp', async ({ client, project }) => {
    const env = { ...process.env, WEFT_BASE_URL: client.baseUrl, WEFT_PROJECT: project } as Record<string, string>;
    const transport = new StdioClientTransport({ command: process.execPath, args: [...process.execArgv, process.argv[1] as string, 'serve'], env });
    const mcp = wrapMCPClient(new Client({ name: 'agent', version: '1.0.0' }));
    await mcp.connect(transport);
    const plan = op(async function planTrip(city: string) {
      const { tools } = await mcp.listTools();
      const result = await mcp.callTool({ name: 'forecast', arguments: { city } });
      return { tools: tools.map((t) => t.name), forecast: (result.content as { text: string }[])[0]?.text };
    });
    console.log('planTrip ->', JSON.stringify(await plan('Lisbon')));
    await mcp.close(); // the server process flushes its calls as it exits, before the trees below are read
  });
}

await (process.argv[2] === 'serve' ? serve() : agent());
