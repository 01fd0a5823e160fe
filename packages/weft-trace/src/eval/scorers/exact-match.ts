/**
 * Built-in scorers comparing text: exact match and string similarity (normalized Levenshtein, fastest-levenshtein).
 * @module
 */
import { distance } from 'fastest-levenshtein';
import { named, type Scorer } from '../scorer.js';

/** Options of the text scorers. */
export interface TextScorerOptions {
  /** Compare ignoring case. @defaultValue false */
  ignoreCase?: boolean;
  /** Trim whitespace at both ends first. @defaultValue true */
  trim?: boolean;
}

function text(value: unknown, options: TextScorerOptions): string {
  let s = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  if (options.trim !== false) s = s.trim();
  return options.ignoreCase ? s.toLowerCase() : s;
}

/**
 * `exact_match`: `true` when the output equals `expected` (strings after `trim`/`ignoreCase`; other values as
 * JSON text).
 * @example evaluate({ ..., scorers: [exactMatch({ ignoreCase: true })] })
 */
export function exactMatch(options: TextScorerOptions = {}): Scorer {
  return named('exact_match', ({ output, expected }) => text(output, options) === text(expected, options));
}

/**
 * `string_similarity`: 1 − Levenshtein distance / the longer length, in [0, 1] (1: equal; two empty strings: 1).
 * @example evaluate({ ..., scorers: [stringSimilarity()] })
 */
export function stringSimilarity(options: TextScorerOptions = {}): Scorer {
  return named('string_similarity', ({ output, expected }) => {
    const a = text(output, options);
    const b = text(expected, options);
    const longest = Math.max(a.length, b.length);
    return longest === 0 ? 1 : 1 - distance(a, b) / longest;
  });
}
