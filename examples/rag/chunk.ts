// Splits documents into passages of prose (code blocks, tables and headings left out) of at most a given number of words.
import { op } from '../../packages/weft-trace/src/index.js';
import type { Doc } from './load.js';

/** A retrievable passage of a document. */
export interface Chunk {
  id: string;
  source: string;
  text: string;
}

const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/** Markdown without fenced code blocks, tables and headings: only prose answers questions. */
const proseOf = (text: string): string =>
  text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .replace(/^\s*(\||#).*$/gm, '');

/** Packs the paragraphs of `text` into passages of at most `maxWords` words (a longer paragraph stands alone). */
export const chunkText = op(function chunkText(text: string, maxWords: number): string[] {
  const paragraphs = proseOf(text).split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  const passages: string[] = [];
  let current: string[] = [];
  let words = 0;
  for (const paragraph of paragraphs) {
    const n = wordCount(paragraph);
    if (current.length > 0 && words + n > maxWords) {
      passages.push(current.join('\n\n'));
      current = [];
      words = 0;
    }
    current.push(paragraph);
    words += n;
  }
  if (current.length > 0) passages.push(current.join('\n\n'));
  return passages;
});

/** Chunks every document; chunk ids are `path#n`. Records the document paths, not their texts, as input. */
export const chunkDocuments = op(function chunkDocuments(docs: Doc[], maxWords: number): Chunk[] {
  return docs.flatMap((doc) =>
    chunkText(doc.text, maxWords).map((text, n) => ({ id: `${doc.path}#${n}`, source: doc.path, text })),
  );
}, { postprocessInputs: ({ docs, ...rest }) => ({ ...rest, docs: Array.isArray(docs) ? docs.map((doc: Doc) => doc.path) : docs }) });
