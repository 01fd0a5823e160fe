/**
 * Reinforcement-learning preview schemas: trajectory logs and training jobs (spec endpoints 1 and 4).
 * @module
 */
import { z } from 'zod';
import { DateTime, JsonObject } from './common.js';
import { LIMITS, tooMany } from './limits.js';

/** Spec "Tool". */
export const Tool = z.looseObject({
  type: z.string(),
  function: z.looseObject({
    name: z.string(),
    description: z.string().optional(),
    parameters: JsonObject.optional(),
    strict: z.boolean().optional(),
  }),
});
export type Tool = z.infer<typeof Tool>;

/**
 * Spec "Trajectory". The spec does not say which fields are required; weft requires `reward` (a finite
 * number: metrics and training need it) and leaves the rest optional. `metrics` values that are numbers or
 * booleans (counted 1/0) are averaged by the log endpoint; others are stored and ignored there.
 */
export const Trajectory = z.looseObject({
  additional_histories: z.array(z.unknown()).optional(),
  final_policy_version: z.number().int().nullish(),
  initial_policy_version: z.number().int().nullish(),
  logs: z.array(z.unknown()).optional(),
  messages_and_choices: z.array(z.unknown()).optional(),
  metadata: JsonObject.optional(),
  metrics: JsonObject.optional(),
  reward: z.number(),
  start_time: DateTime.optional(),
  tools: z.array(Tool).nullish(),
});
export type Trajectory = z.input<typeof Trajectory>;

/** Spec "TrajectoryGroup": trajectories of one prompt, compared with each other. weft requires at least one. */
export const TrajectoryGroup = z.looseObject({
  trajectories: z
    .array(Trajectory)
    .min(1, 'a trajectory group needs at least one trajectory')
    .max(LIMITS.maxTrajectoryGroups, tooMany('trajectories in a group', LIMITS.maxTrajectoryGroups)),
});
export type TrajectoryGroup = z.input<typeof TrajectoryGroup>;

/** A non-empty list of at most `LIMITS.maxTrajectoryGroups` trajectory groups (both preview endpoints refuse an empty one). */
const TrajectoryGroups = z
  .array(TrajectoryGroup)
  .min(1, 'at least one trajectory group is required')
  .max(LIMITS.maxTrajectoryGroups, tooMany('trajectory groups', LIMITS.maxTrajectoryGroups));

/** The splits a trajectory log may name. */
export const Split = z.enum(['train', 'val', 'test']);
export type Split = z.infer<typeof Split>;

/** Body of `POST /v1/preview/models/{model_id}/log` (spec endpoint 1). */
export const TrajectoryLogReq = z.object({
  split: Split,
  trajectory_groups: TrajectoryGroups,
});
export type TrajectoryLogReq = z.input<typeof TrajectoryLogReq>;

/**
 * Metrics over the trajectories stored for a model (in one split, or all). Means, std, min and max are null
 * when there is no trajectory. Standard deviations are population ones (divide by n).
 */
export const TrajectoryMetrics = z.looseObject({
  /** Trajectories stored. */
  trajectory_count: z.number().int(),
  /** Trajectory groups stored. */
  group_count: z.number().int(),
  reward_mean: z.number().nullable(),
  reward_std: z.number().nullable(),
  reward_min: z.number().nullable(),
  reward_max: z.number().nullable(),
  /** Mean over groups of the std of the rewards within each group (a group of one has std 0). */
  group_reward_std_mean: z.number().nullable(),
  /** Mean length of `messages_and_choices` (absent counts 0). */
  message_count_mean: z.number().nullable(),
  /** Per key of the trajectories' `metrics`: the mean of its numeric (and boolean, as 1/0) values. */
  metric_means: z.record(z.string(), z.number()),
});
export type TrajectoryMetrics = z.infer<typeof TrajectoryMetrics>;

/**
 * Answer of the log endpoint (its shape is not shown in the spec; this is weft's): the model, the split
 * logged, the counts of this request, and metrics over everything stored for the model, per split and
 * over all splits (`overall`).
 */
export const TrajectoryLogRes = z.looseObject({
  model_id: z.string(),
  split: Split,
  logged: z.looseObject({ trajectory_count: z.number().int(), group_count: z.number().int() }),
  metrics: z.looseObject({
    train: TrajectoryMetrics,
    val: TrajectoryMetrics,
    test: TrajectoryMetrics,
    overall: TrajectoryMetrics,
  }),
});
export type TrajectoryLogRes = z.infer<typeof TrajectoryLogRes>;

/** A finite number strictly between 0 and 1. */
const OpenUnit = z.number().gt(0).lt(1);
/** A finite number > 0. */
const Positive = z.number().gt(0);

/**
 * Spec "ExperimentalTrainingConfig". The spec shows no bounds; weft checks these (unknown keys are refused):
 * - `learning_rate` > 0
 * - `epsilon` in (0, 1): PPO clip range below 1
 * - `epsilon_high` in (0, 1), and >= `epsilon` when both are set: clip range above 1
 * - `advantage_balance` in [-1, 1]: -1 trains on negative advantages only, 1 on positive only
 * - `svc_k2_tau` > 0
 * - `max_negative_advantage_importance_sampling_weight` > 0
 * - `mask_prob_ratio`, `ppo`, `precalculate_logprobs`, `scale_rewards`: booleans
 */
export const ExperimentalTrainingConfig = z
  .strictObject({
    advantage_balance: z.number().min(-1).max(1).nullish(),
    epsilon: OpenUnit.nullish(),
    epsilon_high: OpenUnit.nullish(),
    svc_k2_tau: Positive.nullish(),
    learning_rate: Positive.nullish(),
    mask_prob_ratio: z.boolean().nullish(),
    max_negative_advantage_importance_sampling_weight: Positive.nullish(),
    ppo: z.boolean().nullish(),
    precalculate_logprobs: z.boolean().nullish(),
    scale_rewards: z.boolean().nullish(),
  })
  .refine((c) => c.epsilon == null || c.epsilon_high == null || c.epsilon_high >= c.epsilon, {
    message: 'epsilon_high must be >= epsilon',
    path: ['epsilon_high'],
  });
export type ExperimentalTrainingConfig = z.input<typeof ExperimentalTrainingConfig>;

/** Body of `POST /v1/preview/training-jobs` (spec endpoint 4). */
export const TrainingJobCreateReq = z.object({
  model_id: z.uuid(),
  trajectory_groups: TrajectoryGroups,
  experimental_config: ExperimentalTrainingConfig.nullish(),
});
export type TrainingJobCreateReq = z.input<typeof TrainingJobCreateReq>;

/**
 * Answer of `POST /v1/preview/training-jobs`: `id` (spec, required); `model_id`, `status` and `created_at`
 * are weft's additions (the local server stores jobs as `queued` and never runs them).
 */
export const TrainingJobCreateRes = z.looseObject({
  id: z.uuid(),
  model_id: z.string().optional(),
  status: z.string().optional(),
  created_at: z.string().optional(),
});
export type TrainingJobCreateRes = z.infer<typeof TrainingJobCreateRes>;
