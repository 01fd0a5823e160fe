// The indexing pipeline as one traced step: load the corpus, chunk it, build the BM25 index.
import { op } from '../../packages/weft-trace/src/index.js';
import { chunkDocuments } from './chunk.js';
import { buildIndex, indexStats, type SearchIndex } from './index.js';
import { loadCorpus } from './load.js';

/** Words per chunk: small enough that retrieval picks out a passage, not a whole file. */
export const CHUNK_WORDS = 80;

/** Loads `paths` (relative names are shown relative to `root`), chunks them and indexes the chunks. */
export const prepareIndex = op(async function prepareIndex(paths: string[], root: string): Promise<SearchIndex> {
  const docs = await loadCorpus(paths, root);
  const chunks = chunkDocuments(docs, CHUNK_WORDS);
  return buildIndex(chunks);
}, { postprocessOutput: indexStats });
