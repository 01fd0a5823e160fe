// Answers questions from a search index: retrieve the best chunks, then extract the sentences that match best.
import { op } from '../../packages/weft-trace/src/index.js';
import type { Chunk } from './chunk.js';
import { scoreChunks, type ScoredChunk, type SearchIndex } from './index.js';
import { splitSentences, tokenize } from './tokenize.js';

/** Thrown by `retrieve` when no chunk shares a single term with the question. */
export class NoMatchError extends Error {
  override name = 'NoMatchError';
}

/** What `answerQuestion` returns: the answer and where it came from, or why there is none. */
export interface Answer {
  question: string;
  answer: string | null;
  sources: string[];
  error?: string;
}

/** The traced entry point `createAnswerer` returns. */
export interface Answerer {
  answerQuestion(question: string): Promise<Answer>;
}

/** A sentence and the chunk it came from. */
interface Sentence {
  text: string;
  source: string;
  score: number;
}

/** Share of the question's distinct terms found in `sentence`, weighted by the chunk's rank. */
function sentenceScore(sentence: string, terms: Set<string>, rank: number): number {
  const words = new Set(tokenize(sentence));
  const hits = [...terms].filter((term) => words.has(term)).length;
  return hits / Math.max(terms.size, 1) / (1 + 0.25 * rank);
}

/**
 * Traced question answering over `index`. The index is closed over rather than passed, so it is
 * not recorded as an input of every call. Answers keep the best sentences scoring at least half the best.
 */
export function createAnswerer(index: SearchIndex, topK = 3, maxSentences = 2): Answerer {
  const rankChunks = op(function rankChunks(question: string): ScoredChunk[] {
    return scoreChunks(index, question).slice(0, topK);
  });

  const retrieve = op(function retrieve(question: string): Chunk[] {
    const ranked = rankChunks(question);
    if (ranked.length === 0) {
      const terms = tokenize(question).join(', ') || '(none)';
      throw new NoMatchError(`no chunk contains any of the terms ${terms}`);
    }
    return ranked.map((scored) => scored.chunk);
  });

  const extractSentences = op(function extractSentences(question: string, chunks: Chunk[]): Sentence[] {
    const terms = new Set(tokenize(question));
    const sentences = chunks.flatMap((chunk, rank) =>
      splitSentences(chunk.text).map((text) => ({ text, source: chunk.source, score: sentenceScore(text, terms, rank) })),
    );
    const ranked = sentences.filter((sentence) => sentence.score > 0).sort((a, b) => b.score - a.score);
    const cutoff = (ranked[0]?.score ?? 0) / 2;
    return ranked.filter((sentence) => sentence.score >= cutoff).slice(0, maxSentences);
  });

  const answerQuestion = op(async function answerQuestion(question: string): Promise<Answer> {
    let chunks: Chunk[];
    try {
      chunks = retrieve(question);
    } catch (error) {
      if (!(error instanceof NoMatchError)) throw error;
      return { question, answer: null, sources: [], error: error.message };
    }
    const best = extractSentences(question, chunks);
    const sources = [...new Set(best.map((sentence) => sentence.source))];
    return { question, answer: best.map((sentence) => sentence.text).join(' ') || null, sources };
  });

  return { answerQuestion };
}
