/**
 * Built-in scorers for structured output: JSON validity and a schema match (zod, or any schema with `safeParse`).
 * @module
 */
import { named, type Scorer } from '../scorer.js';

/** A schema as zod (v3 or v4) and compatible libraries offer it. */
export interface SafeParseSchema {
  safeParse(value: unknown): { success: boolean };
}

/** The output as a JSON value: a string is parsed (throws when it is not JSON), anything else is taken as is. */
function asJson(output: unknown): unknown {
  return typeof output === 'string' ? (JSON.parse(output) as unknown) : output;
}

/** `json_valid`: `true` when the output is a string holding valid JSON (or an object, array, number or boolean already). */
export function jsonValid(): Scorer {
  return named('json_valid', ({ output }) => {
    if (output === undefined) return false;
    try {
      asJson(output);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * `schema_match`: `true` when the output (parsed first when it is a string) passes `schema.safeParse`.
 * @example evaluate({ ..., scorers: [schemaMatch(z.object({ answer: z.string() }))] })
 * @throws {TypeError} when `schema` has no `safeParse` method.
 */
export function schemaMatch(schema: SafeParseSchema): Scorer {
  if (typeof schema?.safeParse !== 'function') throw new TypeError(`schemaMatch: expected a zod schema (an object with safeParse), got ${typeof schema}`);
  return named('schema_match', ({ output }) => {
    try {
      return schema.safeParse(asJson(output)).success;
    } catch {
      return false;
    }
  });
}
