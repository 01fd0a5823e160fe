// Child of rollup-writes-paired.ts: opens a store of one build on a fresh database and measures its batch writes: CPU
// of this process per call (and wall per call) over `batches` batches of 250 calls (one trace root in five).
// argv: <server/index.js of the build> <sqlite file | postgres URL> <together | late> <batches> [<postmaster pid>]
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

const [entry, where, mode, batchesArg, postmasterArg] = process.argv.slice(2);
const postmaster = Number(postmasterArg ?? 0);

/** CPU ms used so far by a PostgreSQL cluster's processes (the postmaster and its children; Linux /proc). */
function clusterCpuMs() {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pid) === postmaster || Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
    } catch { /* gone */ }
  }
  return ticks * 10;
}
const batches = Number(batchesArg);
const { openStore, openPgStore } = await import(entry);
const store = where.startsWith('postgres') ? await openPgStore(where) : openStore(where);

let clock = Date.now() - 3_600_000;
let seq = 0;
/** A UUIDv7: 48 bits of ms, then random bits (time-ordered, as the SDK's). */
function uuid7(ms) {
  const b = randomBytes(16);
  b.writeUIntBE(ms, 0, 6);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
/** 250 calls as traces of 5 (a root, 4 children): their starts and their ends. */
function calls(project) {
  const starts = [];
  const ends = [];
  let root;
  let trace;
  for (let i = 0; i < 250; i++) {
    const ms = clock++;
    const id = uuid7(ms);
    const isRoot = seq++ % 5 === 0;
    if (isRoot) { root = id; trace = id; }
    const started_at = new Date(ms).toISOString();
    starts.push({ mode: 'start', req: { start: { project_id: project, id, trace_id: trace, parent_id: isRoot ? undefined : root, op_name: isRoot ? 'agent' : 'llm', started_at, inputs: { a: i, b: 2 }, attributes: {} } } });
    ends.push({ mode: 'end', req: { end: { project_id: project, id, ended_at: started_at, output: i + 2, summary: { status_counts: { success: 1, error: 0 }, usage: isRoot ? { 'gpt-4o': { input_tokens: 100, output_tokens: 20, requests: 1 } } : {} } } } });
  }
  return { starts, ends };
}
const bodies = (n) => Array.from({ length: n }, () => {
  const { starts, ends } = calls('bench/rollup-writes');
  return mode === 'late' ? [starts, ends] : [[...starts, ...ends]];
}).flat();
const warm = bodies(20);
for (const b of warm) await store.upsertBatch(b);
const work = bodies(batches);
const pg0 = postmaster ? clusterCpuMs() : 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (const b of work) await store.upsertBatch(b);
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const pgMs = postmaster ? clusterCpuMs() - pg0 : undefined;
await store.close();
const n = batches * 250;
process.stdout.write(JSON.stringify({ cpuUsPerCall: (cpu.user + cpu.system) / n, wallUsPerCall: (wallMs * 1000) / n, pgCpuUsPerCall: pgMs === undefined ? undefined : (pgMs * 1000) / n }));
