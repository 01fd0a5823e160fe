// A loopback sink in another process for the export benchmarks: answers every POST at once and counts the calls it received.
import { spawn } from 'node:child_process';

/**
 * The sink: reads each body, counts its calls (`"mode":"end"` items of weft's batches, `"spanId"` keys of OTLP/JSON
 * spans), answers 200 (`{"res":[]}`, or `{}` on `/v1/traces`); `count` over IPC asks the total. It exits when its
 * parent does (the IPC channel closes), so a benchmark killed midway leaves no sink behind.
 */
const SINK = `let ends = 0;
const s = require('node:http').createServer((q, r) => {
  const parts = []; q.on('data', (c) => parts.push(c));
  const otlp = q.url === '/v1/traces';
  const mark = otlp ? '"spanId"' : '"mode":"end"';
  q.on('end', () => { const body = Buffer.concat(parts).toString(); let i = -1; while ((i = body.indexOf(mark, i + 1)) !== -1) ends++; r.setHeader('content-type', 'application/json'); r.end(otlp ? '{}' : '{"res":[]}'); });
});
process.on('message', (m) => { if (m === 'count') process.send({ ends }); else process.exit(0); });
process.on('disconnect', () => process.exit(0));
s.listen(0, '127.0.0.1', () => process.send('http://127.0.0.1:' + s.address().port));`;

/** A running sink: its base URL, and `received()`, which asks its count of end items (or spans) and ends it. */
export interface Sink {
  url: string;
  received(): Promise<number>;
}

/** Starts the sink process; resolves with its URL and a function asking its count (which also ends it). */
export async function startSink(): Promise<Sink> {
  const sink = spawn(process.execPath, ['-e', SINK], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve) => sink.once('message', (m) => resolve(String(m))));
  const received = async (): Promise<number> => {
    sink.send('count');
    const { ends } = await new Promise<{ ends: number }>((resolve) => sink.once('message', (m) => resolve(m as { ends: number })));
    sink.send('exit');
    return ends;
  };
  return { url, received };
}
