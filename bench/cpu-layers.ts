// Where the all-in CPU per traced call goes, layer by layer, for one or more revisions of src/ (run through tsx):
// op() into a sink that discards; + the events' JSON text; + their entries (bytes packed); + the whole exporter
// and HTTP into a server (another process) that answers at once: no SQLite, so only this process's work is timed.
//   npx tsx bench/cpu-layers.ts [rev ...]        (default: the working tree; revs are extracted with git archive)
// Each figure is process CPU (user + system) over N calls in bursts of 100, in a fresh process per layer and rev,
// the revs alternating, twice. Not part of `npm run bench` (it needs src/'s internal modules, not the build).
import { execFileSync, fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { contextLine } from './lib/context-line.js';
import { num, printTable, QUICK } from './lib/table.js';

const ALL_LAYERS = ['discard', 'text', 'entries', 'full'] as const;
type Layer = (typeof ALL_LAYERS)[number];
/** `BENCH_LAYERS=discard` (comma-separated): only these layers, e.g. to bisect one layer over many revisions. */
const LAYERS = ALL_LAYERS.filter((l) => !process.env.BENCH_LAYERS || process.env.BENCH_LAYERS.split(',').includes(l));
const N = QUICK ? 40_000 : 100_000;
/** `BENCH_ROUNDS=4`: rounds of every layer and revision, alternating. @defaultValue 2 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);

/** A server in its own process (its CPU is not counted) that reads each request and answers 200 at once. */
const SERVER = `const s = require('node:http').createServer((q, r) => { q.resume(); q.on('end', () => r.end('{"res":[]}')); });
s.listen(0, '127.0.0.1', () => process.send('http://127.0.0.1:' + s.address().port));`;

interface LayerResult {
  layer: Layer;
  nsPerCall: number;
  sysNsPerCall: number;
}

/** Child: one layer of one source tree; reports CPU per call. */
async function child(srcDir: string, layer: Layer): Promise<void> {
  const weft = (await import(join(srcDir, 'index.ts'))) as typeof import('../packages/weft-trace/src/index.js');
  const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve) => server.once('message', (m) => resolve(String(m))));
  weft.init({ project: 'bench/layers', baseUrl: url });
  if (layer !== 'full') {
    const { setSink } = (await import(join(srcDir, 'instrument/sink.ts'))) as typeof import('../packages/weft-trace/src/instrument/sink.js');
    // only the layers that serialize load the serializers (a revision before them can still be measured on `discard`)
    const { callEventEntry } = layer === 'entries' ? ((await import(join(srcDir, 'export/call-entry.ts'))) as typeof import('../packages/weft-trace/src/export/call-entry.js')) : { callEventEntry: undefined };
    // the text layer: a revision's item text of an event, by hand (eventItemJson, until issue 31) or as JSON.stringify framed (itemText, since)
    type ItemText = (mode: 'start' | 'end', event: object) => unknown;
    const textModule = layer === 'text' ? ((await import(join(srcDir, 'export/event-json.ts'))) as { eventItemJson?: ItemText; itemText?: (mode: 'start' | 'end', body: string) => string }) : undefined;
    const eventItemJson: ItemText | undefined = textModule?.eventItemJson
      ?? (textModule?.itemText ? ((itemText) => (mode, event) => itemText(mode, JSON.stringify(event)))(textModule.itemText) : undefined);
    let kept: unknown[] = []; // the last 1,000 results stay alive, as a batch's events would
    const keep = (x: unknown): void => {
      kept.push(x);
      if (kept.length >= 1000) kept = [];
    };
    const write = (mode: 'start' | 'end', event: object): void => {
      if (eventItemJson) keep(eventItemJson(mode, event));
      else if (callEventEntry) keep(mode === 'start' ? callEventEntry('start', event as never, 10_000_000) : callEventEntry('end', event as never, 10_000_000));
    };
    const report = { sent: 0, dropped: 0, spooled: 0, pending: 0 };
    setSink({ projectId: 'bench/layers', userId: undefined, start: (e) => write('start', e), end: (e) => write('end', e), feedback: () => undefined, flush: async () => report, shutdown: async () => report });
  }
  const add = weft.op(function add(a: number, b: number) {
    return a + b;
  });
  const bursts = async (n: number): Promise<void> => {
    for (let done = 0; done < n; ) {
      const end = Math.min(n, done + 100);
      for (; done < end; done++) add(1, 2);
      await nextTurn();
      while (weft.getExportStats().queueItems > 20_000) await sleep(5);
    }
  };
  await bursts(10_000); // warm-up
  await weft.flush();
  const before = process.cpuUsage();
  await bursts(N);
  await weft.flush();
  const used = process.cpuUsage(before);
  await weft.shutdown();
  server.kill();
  process.send?.({ layer, nsPerCall: ((used.user + used.system) * 1000) / N, sysNsPerCall: (used.system * 1000) / N } satisfies LayerResult);
}

function runChild(srcDir: string, layer: Layer): Promise<LayerResult> {
  const proc = fork(fileURLToPath(import.meta.url), ['--child', srcDir, layer], { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    proc.once('message', (m) => resolve(m as LayerResult));
    proc.once('exit', (code) => code !== 0 && reject(new Error(`layer ${layer} exited with ${code}`)));
  });
}

/** src/ of `rev` in a temp dir whose node_modules links to this repo's. */
function extract(rev: string, root: string, repo: string): string {
  const dir = join(root, rev.replace(/[^\w.-]/g, '_'));
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${repo}" archive "${rev}" src | tar -x -C "${dir}"`]);
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  return join(dir, 'src');
}

async function main(): Promise<void> {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const revs = process.argv.slice(2);
  const root = mkdtempSync(join(tmpdir(), 'weft-layers-'));
  try {
    const trees = revs.length === 0 ? [{ label: 'working tree', src: join(repo, 'src') }] : revs.map((rev) => ({ label: rev, src: extract(rev, root, repo) }));
    const results = new Map<string, LayerResult[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const layer of LAYERS) {
        for (const tree of trees) {
          const r = await runChild(tree.src, layer);
          const key = `${tree.label} ${layer}`;
          results.set(key, [...(results.get(key) ?? []), r]);
        }
      }
    }
    const rows: string[][] = [];
    for (const tree of trees) {
      let below = 0;
      for (const layer of LAYERS) {
        const rs = results.get(`${tree.label} ${layer}`) ?? [];
        const ns = Math.min(...rs.map((r) => r.nsPerCall));
        const sorted = rs.map((r) => r.nsPerCall).sort((a, b) => a - b);
        rows.push([tree.label, layer, rs.map((r) => num(r.nsPerCall)).join(' / '), num(ns), num(sorted[sorted.length >> 1]!), layer === 'discard' ? '' : num(ns - below), num(Math.min(...rs.map((r) => r.sysNsPerCall)))]);
        below = ns;
      }
    }
    printTable(
      `CPU per traced call by layer, ${num(N)} calls in bursts of 100, ${ROUNDS} rounds alternating (server in another process, answering at once) · ${contextLine()}`,
      ['source', 'layer', 'ns/call each round', 'best', 'median', 'added by the layer', 'of which system'],
      rows,
    );
    console.log('(discard: op() into a sink that drops events; text: + the item text of both events (eventItemJson, or itemText of JSON.stringify since issue 31); entries: + callEventEntry (text packed into the shared buffers); full: the real exporter, batches, call order and HTTP)');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const at = process.argv.indexOf('--child');
await (at >= 0 ? child(process.argv[at + 1] ?? '', (process.argv[at + 2] ?? 'full') as Layer) : main());
