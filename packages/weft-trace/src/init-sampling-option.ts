/**
 * The check of `init({ sampling })` (its shape: `SamplingOptions` of export/sampling-options.ts), for the option table.
 * @module
 */
import { z } from 'zod';

const got = (i: { input: unknown }) => `got ${JSON.stringify(i.input) ?? String(i.input)} (${typeof i.input})`;

/** The check of `init({ sampling })`: each field's type and range, unknown keys refused. */
export const SamplingSchema = z
  .object({
    rate: z.number({ error: (i) => `expected a number from 0 to 1, ${got(i)}` }).min(0).max(1).optional(),
    keepErrors: z.boolean({ error: (i) => `expected a boolean, ${got(i)}` }).optional(),
    keepSlowerThanMs: z.number({ error: (i) => `expected a number of ms, ${got(i)}` }).min(0).optional(),
    keepAttributes: z.array(z.string(), { error: (i) => `expected an array of strings, ${got(i)}` }).optional(),
    maxHeldCalls: z.number({ error: (i) => `expected an integer of 1 or more, ${got(i)}` }).int().min(1).optional(),
  })
  .strict();

