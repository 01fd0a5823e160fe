/**
 * Scorers: what a scorer is given and returns, and its result read as named scores.
 * @module
 */

/** A score: a number, or a boolean (summarized as the fraction of `true`). */
export type ScoreValue = number | boolean;

/** What a scorer returns: one score, or an object of them (one named score each; other fields are kept in the call's output only). */
export type ScorerResult = ScoreValue | { [name: string]: unknown };

/** What each scorer is called with. */
export interface ScorerArgs<Row = Record<string, unknown>, Output = unknown> {
  /** The dataset row. */
  row: Row;
  /** What the task returned for the row. */
  output: Output;
  /** `row.expected`. */
  expected: Row extends { expected: infer E } ? E : unknown;
}

/**
 * A scorer: a function of `{ row, output, expected }` returning a {@link ScorerResult}, sync or async. Its name
 * (the function's `name`, or the op name when it is an op) names its scores: `exact_match`, or
 * `retrieval.recall` for the `recall` field of an object returned by `retrieval`.
 */
export type Scorer<Row = Record<string, unknown>, Output = unknown> = (args: ScorerArgs<Row, Output>) => ScorerResult | Promise<ScorerResult>;

/** Names a function as a scorer (built-ins use it; `fn.name` is what a scorer's scores are called). */
export function named<F extends (...args: never[]) => unknown>(name: string, fn: F): F {
  Object.defineProperty(fn, 'name', { value: name, configurable: true });
  return fn;
}

/**
 * The named scores of a scorer's result: a number or boolean under the scorer's name; an object's number and
 * boolean fields under `<scorer>.<field>` (one level; other fields ignored). `undefined` when it holds none.
 */
export function scoresOf(scorer: string, result: unknown): Record<string, ScoreValue> | undefined {
  if (isScore(result)) return { [scorer]: result };
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return undefined;
  let out: Record<string, ScoreValue> | undefined;
  for (const [key, value] of Object.entries(result)) if (isScore(value)) (out ??= {})[`${scorer}.${key}`] = value;
  return out;
}

function isScore(v: unknown): v is ScoreValue {
  return typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}
