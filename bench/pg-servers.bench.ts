// Several servers on one PostgreSQL (issue 40, point 4): calls/s through POST /call/upsert_batch with 4 server processes
// on one database against 1 server process, 128 writers spread over the servers (round robin), in alternating rounds
// (each ratio taken within a round); every round checks that what is stored equals what was acknowledged: the count and
// the ids of every call whose batch was answered 200. Runs a throwaway cluster (scripts/pg-cluster.sh, durable settings).
// The machine's ceiling beside it: the share of all its cores busy (/proc/stat, every process: servers, PostgreSQL,
// writers) during each run; a run at busy share b could go at most 1/b times as fast on this machine with any number
// of servers, so 1/b of the 1-server runs is the most 4 servers can give here (the floor of the 1.5x target).
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { callBatchItems } from './lib/call-batches.js';
import { contextLine } from './lib/context-line.js';
import { median, pgOnce, startBenchCluster } from './lib/pg-cluster.js';
import { type ChildServer, startChildServer } from './lib/server.js';
import { num, printTable, QUICK, verdict } from './lib/table.js';

const WRITERS = 128;
const CALLS_PER_BATCH = 100;
const BATCHES = QUICK ? 240 : 600;
const ROUNDS = QUICK ? 2 : 3;
const PROJECT = 'bench/pg-servers';

const cluster = startBenchCluster();

/** One run's batches: each body and the ids of its calls. */
function batches(): { body: string; ids: string[] }[] {
  return Array.from({ length: BATCHES }, () => {
    const items = callBatchItems(PROJECT, CALLS_PER_BATCH);
    const ids = items.filter((i) => i['mode'] === 'start').map((i) => ((i['req'] as { start: { id: string } }).start.id));
    return { body: JSON.stringify({ batch: items }), ids };
  });
}

/** What a run acknowledged and stored, and the share of the machine's cores busy while it ran (0-1). */
interface Run { perSec: number; acked: Set<string>; stored: Set<string>; failures: number; busy: number }

/** The machine's CPU time so far, all cores: busy and total jiffies (/proc/stat's first line; idle and iowait are idle). */
function cpuTimes(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3]! - f[4]!, total };
}

/** Ingests BATCHES batches through `servers` weft server processes on one fresh database, WRITERS writers spread over them. */
async function ingest(servers: number): Promise<Run> {
  const db = await cluster.freshDatabase();
  const children: ChildServer[] = [];
  for (let i = 0; i < servers; i++) children.push(await startChildServer(db)); // the first migrates
  const work = batches();
  const agents = children.map(() => new Agent({ connections: Math.ceil(WRITERS / servers), pipelining: 1 }));
  const acked = new Set<string>();
  let failures = 0;
  let next = 0;
  const t0 = performance.now();
  const cpu0 = cpuTimes();
  await Promise.all(Array.from({ length: WRITERS }, async (_, w) => {
    const at = w % servers;
    for (let b = work[next++]; b; b = work[next++]) {
      try {
        const res = await request(`${children[at]!.url}/call/upsert_batch`, { method: 'POST', body: b.body, headers: { 'content-type': 'application/json' }, dispatcher: agents[at] });
        await res.body.dump();
        if (res.statusCode === 200) for (const id of b.ids) acked.add(id);
        else failures++;
      } catch {
        failures++;
      }
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  const cpu1 = cpuTimes();
  const busy = (cpu1.busy - cpu0.busy) / (cpu1.total - cpu0.total);
  await Promise.all(agents.map((a) => a.close()));
  for (const c of children) await c.close();
  const rows = await pgOnce<{ id: string }>(db, 'SELECT id FROM calls WHERE project_id = $1 AND started_at IS NOT NULL AND ended_at IS NOT NULL', [PROJECT]);
  return { perSec: acked.size / seconds, acked, stored: new Set(rows.map((r) => r.id)), failures, busy };
}

const sameIds = (a: Set<string>, b: Set<string>): boolean => a.size === b.size && [...a].every((id) => b.has(id));

try {
  const version = await cluster.version();
  const rounds: { one: Run; four: Run }[] = [];
  for (let r = 0; r < ROUNDS; r++) rounds.push({ one: await ingest(1), four: await ingest(4) });
  const ratios = rounds.map((x) => x.four.perSec / x.one.perSec);
  const runs = rounds.flatMap((x) => [x.one, x.four]);
  const equal = runs.every((x) => sameIds(x.acked, x.stored));
  const failures = runs.reduce((n, x) => n + x.failures, 0);
  printTable(
    `Several servers on one PostgreSQL: ${num(BATCHES * CALLS_PER_BATCH)} calls (start + end) in batches of ${CALLS_PER_BATCH}, ${WRITERS} writers spread over the servers, one database (PostgreSQL ${version}, durable), medians of ${ROUNDS} rounds · ${contextLine()}`,
    ['figure', 'value', 'ratio'],
    [
      ['1 server process, calls/s (baseline)', num(median(rounds.map((x) => x.one.perSec))), '1.00x'],
      ['4 server processes, calls/s', num(median(rounds.map((x) => x.four.perSec))), `${num(median(ratios), 2)}x`],
      ['4 servers / 1 server, each round', ratios.map((x) => `${num(x, 2)}x`).join(', '), ''],
      ['machine busy (all cores, every process): 1 server / 4 servers', `${num(median(rounds.map((x) => x.one.busy)) * 100)}% / ${num(median(rounds.map((x) => x.four.busy)) * 100)}%`, ''],
      ['ceiling of any number of servers on this machine: 1 / (busy share of the 1-server runs)', num(median(rounds.map((x) => x.one.perSec / x.one.busy))), `${num(median(rounds.map((x) => 1 / x.one.busy)), 2)}x`],
      ['stored = acknowledged (count and ids, every run)', `${equal ? 'yes' : 'NO'} (${num(Math.min(...runs.map((x) => x.stored.size)))} fewest stored; ${failures} refused)`, ''],
      ['target: >= 1.5x one server, nothing lost', verdict(median(ratios) >= 1.5 && equal, '>= 1.5x, stored = acknowledged'), ''],
    ],
  );
  if (!equal) {
    console.log('CHECK FAILED: what was stored differs from what was acknowledged');
    process.exitCode = 1;
  }
} finally {
  cluster.stop();
}
