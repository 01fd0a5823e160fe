// `npm run demo` with no server running stores into the database file `weft serve` opens and prints a viewer link per trace.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServeChild, serveChild, stopServe } from './browser.js';
import { runExampleOk } from 'weft-test-kit/examples.js';

const dir = mkdtempSync(path.join(tmpdir(), 'weft-demo-store-'));
let server: ServeChild | undefined;

afterAll(async () => {
  if (server) await stopServe(server);
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run demo without a running server', () => {
  it('stores into the database file and prints links that `weft serve` over that file answers', async () => {
    const db = path.join(dir, 'weft.db');
    const stdout = await runExampleOk('examples/quickstart.ts', ['README.md'], { WEFT_DEMO_DB: db });
    expect(stdout).toContain(`Stored in ${db}. Run \`npx weft serve\``);
    const traceIds = [...stdout.matchAll(/http:\/\/127\.0\.0\.1:6345\/#\/p\/local%2Fquickstart\/trace\/([0-9a-f-]{36})/g)].map((m) => m[1]!);
    expect(traceIds).toHaveLength(5);

    server = serveChild(['--port', '0', '--db', db]);
    const url = await server.viewerUrl;
    const res = await fetch(`${url}/calls/stream_query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ project_id: 'local/quickstart', filter: { trace_ids: traceIds, trace_roots_only: true } }),
    });
    const roots = (await res.text()).trim().split('\n').map((line) => JSON.parse(line) as { trace_id: string });
    expect(roots.map((r) => r.trace_id).sort()).toEqual([...traceIds].sort());
  });
});
