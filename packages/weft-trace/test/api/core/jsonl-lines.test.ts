// The JSONL line reader: lines split across chunks (a multi-byte character too), blank lines kept, CRLF, a last line
// without a newline; and the same lines read a chunk's worth at a time.
import { expect, it } from 'vitest';
import { jsonlLineBatches, jsonlLines } from '../../../src/api/core/jsonl-lines.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  yield* parts;
}
const all = async <T>(gen: AsyncGenerator<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of gen) out.push(x);
  return out;
};
// "é" is two bytes in UTF-8, cut between the third and fourth chunks
const e = bytes('é');
const parts = (): (string | Uint8Array)[] => [bytes('{"a":1}\n{"b"'), bytes(':2}\r\n\n'), new Uint8Array([...bytes('{"c":"'), e[0]!]), new Uint8Array([e[1]!, ...bytes('"}\n{"d":4}')])];

it('reads lines across chunks: blank lines kept, CR dropped, the last line without a newline', async () => {
  expect(await all(jsonlLines(chunks(...parts())))).toEqual(['{"a":1}', '{"b":2}', '', '{"c":"é"}', '{"d":4}']);
  expect(await all(jsonlLines(chunks('x\n', 'y\n')))).toEqual(['x', 'y']);
});

it('batches the lines each chunk completes, none for a chunk that completes none', async () => {
  expect(await all(jsonlLineBatches(chunks(...parts())))).toEqual([['{"a":1}'], ['{"b":2}', ''], ['{"c":"é"}'], ['{"d":4}']]);
  expect(await all(jsonlLineBatches(chunks('{"a":', '1}\n{"b":2}\n{"c":3}\n')))).toEqual([['{"a":1}', '{"b":2}', '{"c":3}']]);
});
