// JsonlStream parses records as bytes arrive (not after the whole body), and break destroys the body.
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { APIError } from '../../../src/api/core/api-errors.js';
import { JsonlStream } from '../../../src/api/core/jsonl-stream.js';

const Rec = z.object({ id: z.string() });

it('yields a record as soon as its line is complete, across chunk boundaries', async () => {
  const body = new PassThrough();
  const stream = new JsonlStream(async () => body, Rec);
  const it = stream[Symbol.asyncIterator]();
  body.write('{"id":"a"}\n{"id":');
  expect(await it.next()).toEqual({ done: false, value: { id: 'a' } });
  body.write('"b"}\n');
  expect(await it.next()).toEqual({ done: false, value: { id: 'b' } });
  body.end('{"id":"c"}');
  expect(await it.next()).toEqual({ done: false, value: { id: 'c' } });
  expect((await it.next()).done).toBe(true);
});

it('destroys the body when the consumer breaks out early', async () => {
  const body = new PassThrough();
  body.write('{"id":"a"}\n{"id":"b"}\n');
  for await (const rec of new JsonlStream(async () => body, Rec)) {
    expect(rec.id).toBe('a');
    break;
  }
  expect(body.destroyed).toBe(true);
});

it('raises an error frame in the stream as APIError', async () => {
  const body = new PassThrough();
  body.end('{"id":"a"}\n{"detail":"database went away"}\n');
  const err = await new JsonlStream(async () => body, Rec).toArray().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(APIError);
  expect((err as APIError).message).toContain('database went away');
});
