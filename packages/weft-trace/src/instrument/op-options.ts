/**
 * Options of op(): naming, input capture, post-processing, summaries and stream handling of a traced function.
 * @module
 */
import type { SummaryExtra } from './summary.js';

/** The chunk type of what a function returns when that is a stream, generator or async iterable. */
export type ChunkOf<R> =
  R extends Iterator<infer C> ? C
  : Awaited<R> extends AsyncIterable<infer C> ? C
  : Awaited<R> extends ReadableStream<infer C> ? C
  : unknown;

/**
 * What `postprocessOutput` and `summarize` receive: the awaited return value, or for a stream (generator,
 * async iterable, ReadableStream) the kept chunks (an array) or the `streamReducer` result.
 */
export type OutputOf<R> =
  R extends Iterator<unknown> ? unknown
  : Awaited<R> extends AsyncIterable<unknown> | ReadableStream<unknown> ? unknown
  : Awaited<R>;

/** Options of {@link op}. All optional. */
export interface OpOptions<A extends unknown[] = unknown[], R = unknown> {
  /** Op name recorded as `op_name`. @defaultValue the function's `name` (`Class.method` for decorators), else `"anonymous"` */
  name?: string;
  /** `display_name` of each call: a string, or a function of the call's arguments. @defaultValue none */
  callDisplayName?: string | ((...args: A) => string);
  /** Names for the inputs by position. @defaultValue read from the function's source when unambiguous, else `arg0`, `arg1`, ... */
  parameterNames?: string[];
  /** Rewrites the recorded inputs (not the arguments the function gets). @defaultValue none */
  postprocessInputs?: (inputs: Record<string, unknown>) => Record<string, unknown>;
  /**
   * Rewrites the recorded output (not the value returned to the caller). For a stream it receives the
   * kept chunks (an array) or the `streamReducer` result. @defaultValue none
   */
  postprocessOutput?: (output: OutputOf<R>) => unknown;
  /**
   * Fields for the call's `summary`, computed from the output (the same value `postprocessOutput` gets):
   * `usage` (per model; numbers added into every ancestor's summary) and any other fields (this call only).
   * @example summarize: (r) => ({ usage: { [r.model]: { prompt_tokens: r.usage.prompt_tokens, requests: 1 } } })
   * @defaultValue none
   */
  summarize?: (output: OutputOf<R>) => SummaryExtra;
  /** Attributes recorded on every call of this op, over those of `withAttributes()`. @defaultValue `{}` */
  attributes?: Record<string, unknown>;
  /**
   * Folds a stream's chunks into the recorded output instead of keeping them: called with the value so
   * far (`undefined` at first), each chunk and its index. If it throws, the output is the marker
   * `"[streamReducer threw]"`; the consumer is never affected.
   * @example streamReducer: (text, chunk) => `${text ?? ''}${chunk}`
   * @defaultValue none (chunks are kept, up to `maxStreamChunks`)
   */
  streamReducer?: (accumulated: unknown, chunk: ChunkOf<R>, index: number) => unknown;
  /** Chunks of a stream kept as the output; later ones are counted in a marker. @defaultValue `init({ maxStreamChunks })`, 1000 */
  maxStreamChunks?: number;
}
