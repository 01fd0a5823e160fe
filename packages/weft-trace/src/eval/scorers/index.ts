/**
 * The built-in scorers.
 * @module
 */
export { exactMatch, stringSimilarity, type TextScorerOptions } from './exact-match.js';
export { jsonValid, schemaMatch, type SafeParseSchema } from './json-scorers.js';
export { numericCloseness, type NumericClosenessOptions } from './numeric.js';
export { llmJudge, type LlmJudgeOptions } from './llm-judge.js';
