// The work functions every case wraps (the same code for plain, weft and OpenTelemetry), each counting its invocations.

/** Counts invocations, so a benchmark can check that every call reached the server. */
export class Tally {
  n = 0;
}

/** A small sync function: `add(a, b)`. */
export function addWith(t: Tally): (a: number, b: number) => number {
  return function add(a: number, b: number): number {
    t.n++;
    return a + b;
  };
}

/** The same as {@link addWith}, async. */
export function addAsyncWith(t: Tally): (a: number, b: number) => Promise<number> {
  return async function add(a: number, b: number): Promise<number> {
    t.n++;
    return a + b;
  };
}

/** A document argument of about `bytes` bytes of JSON. */
export interface Doc {
  title: string;
  items: { id: number; text: string; score: number }[];
}

/** Builds a {@link Doc} whose JSON is at least `bytes` long (10 KB for the benchmark). */
export function makeDoc(bytes: number): Doc {
  const doc: Doc = { title: 'bench document', items: [] };
  for (let i = 0; JSON.stringify(doc).length < bytes; i++) {
    doc.items.push({ id: i, text: `chunk ${i} of a retrieved passage about tracing`, score: i / 100 });
  }
  return doc;
}

/** A sync function taking the document: returns how many items it has. */
export function countItemsWith(t: Tally): (doc: Doc) => number {
  return function countItems(doc: Doc): number {
    t.n++;
    return doc.items.length;
  };
}

/** An async generator yielding `n` small chunks (a streamed LLM answer in miniature). */
export function chunksWith(t: Tally): (n: number) => AsyncGenerator<number> {
  return async function* chunks(n: number): AsyncGenerator<number> {
    t.n++;
    for (let i = 0; i < n; i++) yield i;
  };
}

/** Reads a stream to the end; returns the sum of its chunks. */
export async function drain(stream: AsyncIterable<number>): Promise<number> {
  let sum = 0;
  for await (const chunk of stream) sum += chunk;
  return sum;
}
