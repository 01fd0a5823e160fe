/**
 * The one JSONL line reader: the client's stream_query stream, `weft calls import` and the viewer split JSONL with it, as the bytes arrive (no Node APIs, so the viewer bundles it).
 * @module
 */

/**
 * The lines of a JSONL byte stream, decoded as UTF-8 across chunk boundaries and yielded as soon as each is
 * complete: blank lines included (so a caller can number them), a trailing `\r` removed (CRLF files), no final
 * empty line after a closing newline. Parsing is the caller's: the reader holds at most one chunk's lines.
 */
export async function* jsonlLines(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  for await (const lines of jsonlLineBatches(chunks)) yield* lines;
}

/**
 * The lines of a JSONL byte stream as {@link jsonlLines} reads them, yielded together: the lines each chunk completes,
 * as one array (a chunk that completes none yields nothing). One await per chunk, not per line: the viewer reads a
 * 10,000-call trace (4 MB, about 60 chunks) so, where a line at a time cost a promise per line through each reader.
 */
export async function* jsonlLineBatches(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string[]> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const last = pending.lastIndexOf('\n');
    if (last < 0) continue;
    const lines = pending.slice(0, last).split('\n').map(withoutCr);
    pending = pending.slice(last + 1);
    yield lines;
  }
  pending += decoder.decode();
  if (pending !== '') yield [withoutCr(pending)];
}

function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
