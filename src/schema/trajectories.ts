/**
 * Reinforcement-learning preview schemas: trajectory logs and training jobs (spec endpoints 1 and 4).
 * @module
 */
import { z } from 'zod';
import { DateTime, JsonObject } from './common.js';

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

/** Spec "Trajectory": which fields are required is not shown, so all are optional but typed. */
export const Trajectory = z.looseObject({
  additional_histories: z.array(z.unknown()).optional(),
  final_policy_version: z.number().int().nullish(),
  initial_policy_version: z.number().int().nullish(),
  logs: z.array(z.unknown()).optional(),
  messages_and_choices: z.array(z.unknown()).optional(),
  metadata: JsonObject.optional(),
  metrics: JsonObject.optional(),
  reward: z.number().optional(),
  start_time: DateTime.optional(),
  tools: z.array(Tool).nullish(),
});
export type Trajectory = z.input<typeof Trajectory>;

/** Spec "TrajectoryGroup". */
export const TrajectoryGroup = z.looseObject({ trajectories: z.array(Trajectory) });
export type TrajectoryGroup = z.input<typeof TrajectoryGroup>;

/** Body of `POST /v1/preview/models/{model_id}/log`. */
export const TrajectoryLogReq = z.object({
  split: z.enum(['train', 'val', 'test']),
  trajectory_groups: z.array(TrajectoryGroup),
});
export type TrajectoryLogReq = z.input<typeof TrajectoryLogReq>;

/** Answer of the log endpoint: computed metrics (shape not shown in the spec, so loose). */
export const TrajectoryLogRes = z.looseObject({});
export type TrajectoryLogRes = z.infer<typeof TrajectoryLogRes>;

/** Spec "ExperimentalTrainingConfig". */
export const ExperimentalTrainingConfig = z.object({
  advantage_balance: z.number().nullish(),
  epsilon: z.number().nullish(),
  epsilon_high: z.number().nullish(),
  svc_k2_tau: z.number().nullish(),
  learning_rate: z.number().nullish(),
  mask_prob_ratio: z.boolean().nullish(),
  max_negative_advantage_importance_sampling_weight: z.number().nullish(),
  ppo: z.boolean().nullish(),
  precalculate_logprobs: z.boolean().nullish(),
  scale_rewards: z.boolean().nullish(),
});
export type ExperimentalTrainingConfig = z.input<typeof ExperimentalTrainingConfig>;

/** Body of `POST /v1/preview/training-jobs`. */
export const TrainingJobCreateReq = z.object({
  model_id: z.uuid(),
  trajectory_groups: z.array(TrajectoryGroup),
  experimental_config: ExperimentalTrainingConfig.nullish(),
});
export type TrainingJobCreateReq = z.input<typeof TrainingJobCreateReq>;

/** Answer of `POST /v1/preview/training-jobs`. */
export const TrainingJobCreateRes = z.looseObject({ id: z.string() });
export type TrainingJobCreateRes = z.infer<typeof TrainingJobCreateRes>;
