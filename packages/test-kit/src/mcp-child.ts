/**
 * Test helper: the MCP server of test/fixtures/mcp-stdio-server.ts as a child process on stdio, traced into a project
 * of a test server, with a wrapped client: connected, closed (the child flushes at exit) and awaited until gone.
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { wrapMCPClient } from 'weft-trace';
import { trackPid, whenGone } from './child-processes.js';
import { bundled } from './ts-bundle.js';

/** The child's client side: `client` (wrapped by `wrapMCPClient`), and the child's pid once connected. */
export interface McpChild {
  readonly client: Client;
  /** The child's pid, once {@link McpChild.connect} has run. */
  pid(): number;
  /** Starts the child and connects (call it inside the op the tool calls should nest under). */
  connect(): Promise<void>;
  /** Closes the client (ends the child's stdin; it flushes its calls at exit) and waits until the child is gone. */
  close(): Promise<void>;
}

/**
 * The fixture server as a child tracing into `project` on `baseUrl`, with `env` added to this process's environment
 * (e.g. `OPENAI_BASE_URL` for its `ask` tool); `fixture` names another server script.
 */
export async function mcpChild(baseUrl: string, project: string, env: Record<string, string> = {}, fixture = 'test/fixtures/mcp-stdio-server.ts'): Promise<McpChild> {
  const script = await bundled(fixture);
  const all = Object.fromEntries(Object.entries({ ...process.env, WEFT_BASE_URL: baseUrl, WEFT_PROJECT: project, ...env }).filter((e): e is [string, string] => e[1] !== undefined));
  const transport = new StdioClientTransport({ command: process.execPath, args: [script], env: all, stderr: 'inherit' });
  const client = wrapMCPClient(new Client({ name: 'agent', version: '1.0.0' }));
  let pid: number | undefined;
  return {
    client,
    pid: () => pid as number,
    async connect() {
      await client.connect(transport);
      pid = transport.pid ?? undefined;
      if (pid !== undefined) trackPid(pid, 'mcp-stdio-server fixture');
    },
    async close() {
      await client.close();
      if (pid !== undefined) await whenGone(pid, 10_000);
    },
  };
}
