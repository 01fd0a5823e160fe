// Child-process entry: runs the local weft server on a given SQLite file (or a postgres:// URL) and reports its URL to the parent over IPC.
import { weftServer } from './weft-server.js';

const dbPath = process.argv[2] ?? ':memory:';
const where = /^postgres(ql)?:\/\//.test(dbPath) ? { db: dbPath } : { dbPath };
// WEFT_BENCH_ROLLUPS=1: the rollup jobs run, as in `weft serve`
const rollups = process.env.WEFT_BENCH_ROLLUPS === '1';
const server = await weftServer.startServer({ port: 0, host: '127.0.0.1', ...where, rollups, log: (line) => process.stderr.write(`${line}\n`) });
process.send?.({ url: server.url });
process.once('SIGTERM', () => {
  void server.close().then(() => process.exit(0));
});
// The parent died without stopping us (crash, kill): do not linger holding the port and the file.
process.once('disconnect', () => {
  void server.close().then(() => process.exit(0));
});
