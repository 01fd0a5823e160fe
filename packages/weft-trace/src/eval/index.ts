/**
 * Evaluations: datasets, scorers and evaluate().
 * @module
 */
export { Dataset, type DatasetOptions, type DatasetRow, type PublishedDataset } from './dataset.js';
export { evaluate } from './evaluate.js';
export type { EvaluateOptions, EvaluationResult, EvaluationRow } from './evaluate-options.js';
export type { EvaluationSummary, ScoreSummary } from './summary.js';
export type { Scorer, ScorerArgs, ScorerResult, ScoreValue } from './scorer.js';
export * from './scorers/index.js';
