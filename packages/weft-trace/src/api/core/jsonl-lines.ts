/**
 * The one JSONL line reader: the client's stream_query stream, `weft calls import` and the viewer split JSONL with it, as the bytes arrive (no Node APIs, so the viewer bundles it).
 * @module
 */

/**
 * The lines of a JSONL byte stream, decoded as UTF-8 across chunk boundaries and yielded as soon as each is
 * complete: blank lines included (so a caller can number them), a trailing `\r` removed (CRLF files), no final
 * empty line after a closing newline. Parsing is the caller's: the reader never holds more than one line.
 */
export async function* jsonlLines(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of chunks) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n', start)) {
      yield withoutCr(pending.slice(start, nl));
      start = nl + 1;
    }
    pending = pending.slice(start);
  }
  pending += decoder.decode();
  if (pending !== '') yield withoutCr(pending);
}

function withoutCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
