// Child-process entry: the ingest floor behind a bare node:http server (the body read whole, then openIngestFloor's parse and insert, then `{}`): HTTP framing plus the floor, no weft code. Reports its URL over IPC.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openIngestFloor } from './ingest-floor.js';

const floor = openIngestFloor(process.argv[2] ?? 'floor.db');
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    floor.write(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
const stop = (): void => {
  server.close();
  floor.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('disconnect', stop);
