// init({ sampling }) in one process: the tail rules (a slow call, a chosen attribute, a failure), a trace sent whole or
// not at all, the held calls' bound (the trace over it is sent), and sampling off sending everything.
import { describe, expect, it } from 'vitest';
import { op, withAttributes, type SamplingOptions } from '../../src/index.js';
import type { CallRecord } from '../../src/schema/calls.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const leaf = op(async function leaf(ms: number) {
  await sleep(ms);
  return ms;
});
const root = op(async function root(name: string, ms: number, fail = false) {
  await leaf(ms);
  await leaf(0);
  if (fail) throw new Error(`${name} failed`);
  return name;
});

/** The root names of the traces sent, each checked whole (the root and its two leaves). */
function sentRoots(calls: CallRecord[]): string[] {
  const roots = calls.filter((c) => c.op_name === 'root');
  for (const r of roots) expect(calls.filter((c) => c.trace_id === r.trace_id).map((c) => c.op_name).sort()).toEqual(['leaf', 'leaf', 'root']);
  return roots.map((r) => (r.inputs as { name: string }).name).sort();
}

const run = (sampling: SamplingOptions | undefined, work: () => Promise<unknown>) => traced(server(), 'sampler', work, { printViewerLink: false, ...(sampling ? { sampling } : {}) });

describe('init({ sampling }) tail rules, rate 0', () => {
  it('keeps the traces with a failed call or a call slower than keepSlowerThanMs, whole, and leaves out the rest', async () => {
    const calls = await run({ rate: 0, keepSlowerThanMs: 250 }, async () => {
      await root('fast', 0);
      await root('slow', 400);
      await root('failed', 0, true).catch(() => undefined);
    });
    expect(sentRoots(calls)).toEqual(['failed', 'slow']);
  });

  it('keeps the traces in which a call carries one of keepAttributes; keepErrors: false lets failures go', async () => {
    const calls = await run({ rate: 0, keepErrors: false, keepAttributes: ['customer.tier'] }, async () => {
      await root('plain', 0);
      await withAttributes({ 'customer.tier': 'gold' }, () => root('gold', 0));
      await root('failed', 0, true).catch(() => undefined);
    });
    expect(sentRoots(calls)).toEqual(['gold']);
  });

  it('sends a trace at once, whole so far, when the calls held go over maxHeldCalls', async () => {
    const wide = op(async function root(name: string) {
      for (let i = 0; i < 4; i++) await leaf(0);
      return name;
    });
    const calls = await run({ rate: 0, maxHeldCalls: 3 }, () => wide('wide'));
    expect(calls.filter((c) => c.op_name === 'leaf')).toHaveLength(4);
    expect(calls.filter((c) => c.op_name === 'root')).toHaveLength(1);
  });
});

describe('init({ sampling }) rate', () => {
  it('rate 1 and sampling off send every trace', async () => {
    for (const sampling of [{ rate: 1 }, undefined]) {
      const calls = await run(sampling, async () => {
        for (const name of ['a', 'b', 'c']) await root(name, 0);
      });
      expect(sentRoots(calls)).toEqual(['a', 'b', 'c']);
    }
  });
});

describe('init({ sampling }) and the W3C sampled flag', () => {
  it('an MCP request of a trace the rate leaves out (no tail rule) carries sampled = 00, else 01; the server honours it', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const { wrapMCPClient } = await import('../../src/index.js');
    const seen: string[] = [];
    const flagOf = async (sampling: SamplingOptions) => {
      const server = new McpServer({ name: 'tools', version: '1.0.0' });
      server.tool('echo', async (extra) => (seen.push(String(extra._meta?.['traceparent'])), { content: [{ type: 'text' as const, text: 'ok' }] }));
      const [a, b] = InMemoryTransport.createLinkedPair();
      await server.connect(b);
      const client = wrapMCPClient(new Client({ name: 'agent', version: '1.0.0' }));
      await client.connect(a);
      await run(sampling, () => op(async function ask() { return client.callTool({ name: 'echo' }); })());
      await client.close();
      return seen.at(-1)!.slice(-2);
    };
    expect(await flagOf({ rate: 0, keepErrors: false })).toBe('00');
    expect(await flagOf({ rate: 0 })).toBe('01'); // a tail rule may still keep it: the receiver holds its part too
    expect(await flagOf({ rate: 1 })).toBe('01');
  });
});
