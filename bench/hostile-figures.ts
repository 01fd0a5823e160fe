// Issue 11 items 4 and 5 (the time bounds the hostile-input and big-row tests no longer assert), before and after: seconds and server RSS of 4 MB bodies of 1M wrong-typed items; table create time after a huge row.
// Usage: npx tsx bench/hostile-figures.ts [label=]<checkout> ...  (default: this worktree). Each server runs the checkout's src/cli.ts
// in a child process (node --import tsx, no wrapper process), on a fresh file database, on loopback.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { request } from 'undici';
import { benchTempDir } from './lib/server.js';
import { num, printTable } from './lib/table.js';

const ITEMS = Number(process.env.BENCH_HOSTILE_ITEMS) || 1_000_000;
const BIG_ROW_BYTES = Number(process.env.BENCH_BIG_ROW_BYTES) || 31_000_000;
const SMALL_ROWS = 100_000;
const TSX = import.meta.resolve('tsx');
/** Which items to measure, e.g. `BENCH_HOSTILE=5` (default both). */
const ONLY = (process.env.BENCH_HOSTILE ?? '4,5').split(',');

interface Server {
  url: string;
  child: ChildProcess;
  dir: string;
}

async function startServer(checkout: string): Promise<Server> {
  const dir = benchTempDir();
  const child = spawn(process.execPath, ['--import', TSX, join(checkout, 'packages/weft-server/src/cli.ts'), 'serve', '--port', '0', '--db', join(dir, 'db.sqlite')], {
    cwd: checkout, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) ok(m[1]!);
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => fail(new Error(`server of ${checkout} exited with ${code}: ${out}`)));
  });
  return { url, child, dir };
}

async function stopServer(s: Server): Promise<void> {
  const exited = new Promise((ok) => s.child.once('exit', ok));
  s.child.kill('SIGTERM');
  await exited;
  rmSync(s.dir, { recursive: true, force: true });
}

/** Peak and current resident set size of a process, MB (Linux /proc). */
function rssMb(pid: number): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { peak: kb('VmHWM') / 1024, now: kb('VmRSS') / 1024 };
}

/** POSTs `body`; seconds to the whole answer, its status and size. */
async function post(url: string, body: string): Promise<{ seconds: number; status: number; bytes: number }> {
  const t0 = performance.now();
  const res = await request(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, headersTimeout: 600_000, bodyTimeout: 600_000 });
  const text = await res.body.text();
  return { seconds: (performance.now() - t0) / 1000, status: res.statusCode, bytes: Buffer.byteLength(text) };
}

const wrong = `[${Array.from({ length: ITEMS }, () => '"x"').join(',')}]`;
const item4: [string, string, string][] = [
  ['upsert_batch `batch`', '/call/upsert_batch', `{"batch":${wrong}}`],
  ['stream_query `sort_by`', '/calls/stream_query', `{"project_id":"e/p","sort_by":${wrong}}`],
  ['trajectory log `trajectory_groups`', '/v1/preview/models/0192f1c4-8a5e-7000-8000-000000000001/log', `{"split":"train","trajectory_groups":${wrong}}`],
];
// The big row's project sorts after the other one, so its key is a divider every later insert compared with (the item 5 case).
const smallRows = (project: string): string =>
  JSON.stringify({ project_id: project, rows: Array.from({ length: SMALL_ROWS }, (_, i) => String.fromCharCode(97 + (i % 26))) });
const bigRow = JSON.stringify({ project_id: 'z/big', rows: [{ text: 'x'.repeat(BIG_ROW_BYTES) }] });

const checkouts = (process.argv.length > 2 ? process.argv.slice(2) : [`this worktree=${process.cwd()}`]).map((arg) => {
  const [label, path] = arg.includes('=') ? (arg.split('=', 2) as [string, string]) : [arg, arg];
  return { label, path: resolve(path) };
});

const rows4: string[][] = [];
const rows5: string[][] = [];
for (const { label, path } of checkouts) {
  for (const [name, route, body] of ONLY.includes('4') ? item4 : []) {
    const s = await startServer(path);
    const before = rssMb(s.child.pid!).now;
    const r = await post(`${s.url}${route}`, body);
    const rss = rssMb(s.child.pid!);
    rows4.push([label, name, num(Buffer.byteLength(body) / 1e6, 1), String(r.status), num(r.bytes), num(r.seconds, 2), num(before), num(rss.peak)]);
    await stopServer(s);
  }
  if (ONLY.includes('5')) {
    const s = await startServer(path);
    const fresh = await post(`${s.url}/table/create`, smallRows('m/small'));
    await stopServer(s);
    const t = await startServer(path);
    const big = await post(`${t.url}/table/create`, bigRow);
    const other = await post(`${t.url}/table/create`, smallRows('m/small'));
    const same = await post(`${t.url}/table/create`, smallRows('z/big'));
    const rss = rssMb(t.child.pid!);
    await stopServer(t);
    rows5.push([label, `${fresh.status} ${num(fresh.seconds, 2)}`, `${big.status} ${num(big.seconds, 2)}`, `${other.status} ${num(other.seconds, 2)}`,
      `${same.status} ${num(same.seconds, 2)}`, `${num(other.seconds / fresh.seconds, 2)}x, ${num(same.seconds / fresh.seconds, 2)}x`, num(rss.peak)]);
  }
}
const when = `${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} · Node ${process.version} · load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;
if (rows4.length > 0) printTable(`Issue 11 item 4: a body of ${num(ITEMS)} wrong-typed items ("x"), one fresh server each · ${when}`,
  ['code', 'where', 'body MB', 'status', 'answer bytes', 's', 'RSS before MB', 'peak RSS MB'], rows4);
if (rows5.length > 0) printTable(`Issue 11 item 5: /table/create of ${num(SMALL_ROWS)} one-character rows, after one table of a single ${num(BIG_ROW_BYTES / 1e6)} MB row · ${when}`,
  ['code', 'fresh db: status s', 'big row: status s', 'then other project: status s', 'then same project: status s', 'other, same / fresh', 'peak RSS MB'], rows5);
