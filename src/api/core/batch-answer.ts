/**
 * The answer of a batch endpoint to a pre-serialized body: `{res: [...]}`, its items left unparsed.
 * @module
 */
import { z } from 'zod';

/**
 * What a raw batch method checks of an answer: an object with a `res` array (one item per batch item,
 * in order). The items are not parsed one by one, which a sender that only counts them does not need.
 */
export const RawBatchRes = z.looseObject({ res: z.array(z.unknown()) });

/** `{res: unknown[]}`: the answer of `calls.upsertBatchRaw()` and `feedback.createRaw()`. */
export type RawBatchRes = z.output<typeof RawBatchRes>;
