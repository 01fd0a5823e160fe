// Child-process entry: the ingest floor behind a bare node:http server (the body read whole, then the floor's parse and insert, then `{}`): HTTP framing plus the floor, no weft code. Argument: a SQLite file, or a postgres:// URL of a migrated database. Reports its URL over IPC.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openIngestFloor, openPgIngestFloor } from './ingest-floor.js';

const where = process.argv[2] ?? 'floor.db';
const floor = /^postgres(ql)?:\/\//.test(where)
  ? openPgIngestFloor(where, 2)
  : (() => {
      const f = openIngestFloor(where);
      return { write: async (body: string) => f.write(body), close: async () => f.close() };
    })();
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    floor.write(Buffer.concat(chunks).toString('utf8')).then(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
      (err: unknown) => res.writeHead(500).end(String(err)),
    );
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
const stop = (): void => {
  server.close();
  void floor.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('disconnect', stop);
