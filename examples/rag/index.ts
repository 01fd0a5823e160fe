// BM25 index over chunks, backed by the `okapibm25` package.
import bm25 from 'okapibm25';
import { op } from '../../packages/weft-trace/src/index.js';
import type { Chunk } from './chunk.js';
import { tokenize } from './tokenize.js';

/** Chunks plus their token-encoded form, ready for scoring. */
export interface SearchIndex {
  chunks: Chunk[];
  encoded: string[];
  vocabulary: number;
}

/** A chunk and its BM25 score for one query. */
export interface ScoredChunk {
  chunk: Chunk;
  score: number;
}

// okapibm25 matches terms with `String.includes` and `new RegExp(term)`, so plain words would
// match inside longer words ("log" in "logging"). Wrapping every token as `<token>` makes each
// match a whole token, and tokens are `[a-z0-9]+`, so they are safe inside a RegExp.
const encode = (tokens: string[]): string => tokens.map((token) => `<${token}>`).join('');

/** Sizes of an index: what its traced calls record instead of the whole corpus. */
export const indexStats = (index: SearchIndex): { chunks: number; vocabulary: number } =>
  ({ chunks: index.chunks.length, vocabulary: index.vocabulary });

/** Tokenizes every chunk once. Records the chunk ids as input and the index's sizes as output. */
export const buildIndex = op(function buildIndex(chunks: Chunk[]): SearchIndex {
  const tokens = chunks.map((chunk) => tokenize(chunk.text));
  return { chunks, encoded: tokens.map(encode), vocabulary: new Set(tokens.flat()).size };
}, {
  postprocessInputs: ({ chunks }) => ({ chunks: Array.isArray(chunks) ? chunks.map((chunk: Chunk) => chunk.id) : chunks }),
  postprocessOutput: indexStats,
});

/** BM25 scores of every chunk for `query`, best first; chunks sharing no term with it are left out. */
export function scoreChunks(index: SearchIndex, query: string): ScoredChunk[] {
  const terms = [...new Set(tokenize(query))].map((token) => `<${token}>`);
  if (terms.length === 0 || index.chunks.length === 0) return [];
  const scores = bm25.default(index.encoded, terms) as number[];
  return index.chunks
    .map((chunk, i) => ({ chunk, score: scores[i] ?? 0 }))
    .filter((scored) => scored.score > 0)
    .sort((a, b) => b.score - a.score);
}
