/**
 * What the playground's routes accept (checked at the boundary: a bad body is a 422 `{detail}`) and what they hand
 * to the worker: a variant (provider, model, messages, parameters, the prompt version it came from) run once, or run
 * over a dataset with chosen scorers.
 * @module
 */
import { z } from 'zod';
import { PLAYGROUND_PROVIDERS } from './providers.js';

/** The scorers a dataset run may choose (built-ins of `weft-trace` that need no options). */
export const PLAYGROUND_SCORERS = ['exact_match', 'string_similarity', 'json_valid'] as const;

const Message = z.object({ role: z.enum(['system', 'developer', 'user', 'assistant']), content: z.string() });

/** One variant: what is sent to the provider. `{{variables}}` in the messages are filled from `values` (or a dataset row). */
export const Variant = z.object({
  provider: z.enum(PLAYGROUND_PROVIDERS),
  model: z.string().min(1, 'model must not be empty').max(200),
  messages: z.array(Message).min(1, 'at least one message').max(200),
  /** Request parameters (`temperature`, `max_tokens`, ...), sent as given. */
  params: z.record(z.string(), z.unknown()).default({}),
  /** The prompt version the variant was opened from (`weave:///<project>/object/<name>:<digest>`): recorded as `weft.prompt.ref`. */
  prompt_ref: z.string().max(1000).nullish(),
  /** The call the variant was opened from, recorded as `weft.playground.source_call`. */
  source_call_id: z.string().max(100).nullish(),
  values: z.record(z.string(), z.string()).default({}),
});
export type Variant = z.infer<typeof Variant>;

/** Body of `POST /weft/playground/run`. */
export const RunReq = z.object({ project_id: z.string().regex(/^[^/]+\/[^/]+$/, 'expected <entity>/<project>'), variant: Variant });

/** Body of `POST /weft/playground/evaluate`. */
export const EvaluateReq = z.object({
  project_id: z.string().regex(/^[^/]+\/[^/]+$/, 'expected <entity>/<project>'),
  variant: Variant,
  /** The dataset's ref (`weave:///<project>/object/<name>:<digest>`). */
  dataset_ref: z.string().min(1),
  scorers: z.array(z.enum(PLAYGROUND_SCORERS)).min(1, 'choose at least one scorer'),
  /** The run's name (the `Evaluation` object's id). */
  name: z.string().min(1).max(128),
});

/** Body of `POST /weft/playground/save`: the variant stored as a new version of prompt `name`. */
export const SaveReq = z.object({
  project_id: z.string().regex(/^[^/]+\/[^/]+$/, 'expected <entity>/<project>'),
  name: z.string().regex(/^[\w.-]{1,128}$/, 'expected 1-128 letters, digits, "-", "_" or "."'),
  variant: Variant.extend({ description: z.string().max(1000).nullish() }),
});

/** What the worker is given on its stdin: a run or an evaluation, and where to record it. */
export type WorkerJob = { project_id: string; base_url: string; api_key: string | null } & (
  | { kind: 'run'; variant: Variant }
  | { kind: 'evaluate'; variant: Variant; dataset_ref: string; scorers: string[]; name: string }
);

/** A line the worker writes (JSONL on stdout), streamed on to the page as is. */
export type WorkerLine =
  | { type: 'delta'; text: string }
  | { type: 'end'; call_id: string | null; trace_id: string | null; text: string; latency_ms: number }
  | { type: 'output'; index: number; text: string }
  | { type: 'row'; index: number; output: unknown; scores: Record<string, unknown>; error?: string }
  | { type: 'evaluated'; run_id: string; summary: unknown }
  | { type: 'error'; message: string };
