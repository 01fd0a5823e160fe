// Child of lib/instructions.ts, run under valgrind (callgrind): one workload of the SDK build in argv[2], sized by argv[4], so that the difference of two sizes is the instructions of the calls alone.
// Plain JavaScript (no tsx loader under valgrind). Workloads (argv[3]):
// - sync: `op((x) => x)` after init(), 3,000 warm-up calls, then N calls in one synchronous loop, then exit at once: each
//   call's inline cost plus the serialization and batching of its events (done inline every STAGE_MAX events), no HTTP;
// - nested: the all-in workload of nested-child.ts (a root awaiting two children, a turn every 16 roots) for N roots,
//   then flush() to the sink at argv[5]: every instruction of recording and exporting them.
import { pathToFileURL } from 'node:url';

const [dist, workload, size, sinkUrl] = process.argv.slice(2);
const n = Number(size);
const weft = await import(pathToFileURL(`${dist.replace(/\/?$/, '/')}index.js`).href);
weft.setDiagLevel?.('error');
weft.init({ project: 'bench/instructions', baseUrl: sinkUrl, printViewerLink: false });
if (workload === 'sync') {
  const identity = weft.op((x) => x, { name: 'identity' });
  for (let i = 0; i < 3000; i++) identity(i);
  for (let i = 0; i < n; i++) identity(i);
  process.exit(0);
}
const leaf = async (x) => {
  await Promise.resolve();
  return x * 2;
};
const child = weft.op(leaf, { name: 'child' });
const root = weft.op(async (i) => (await Promise.all([child(i), child(i + 1)])).reduce((a, b) => a + b, 0), { name: 'root' });
const drive = async (roots) => {
  const pending = [];
  for (let i = 0; i < roots; i++) {
    pending.push(root(i));
    if ((i + 1) % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(pending);
};
await drive(500);
await weft.flush();
await drive(n);
await weft.flush();
process.exit(0);
