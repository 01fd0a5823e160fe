/**
 * `POST /weft/datasets/add_calls` (a weft extension, not in the interface spec): traced calls added to a dataset as
 * rows, each addition a new version of the dataset object (issue 50 point 4).
 * @module
 */
import { z } from 'zod';
import { ObjectId } from './objects.js';
import { ProjectId } from './project-id.js';

export { callRef, type CallDatasetRow, DATASET_PATHS, expectedFromText, parseCallRef } from './dataset-rows.js';

/** Most calls one request adds. */
export const MAX_DATASET_ADD_CALLS = 1_000;

/** One call to add: its id and, when the reviewer corrected it, the expected output to keep instead of its output. */
export const DatasetAddCall = z.object({
  id: z.string().min(1, 'id must not be empty'),
  /** The corrected expected output (any JSON, `null` too); absent: the call's own output. */
  expected: z.unknown().optional(),
});

/**
 * Body: the project, the dataset's name (an object id; created by its first addition), the calls in order (1 to
 * {@link MAX_DATASET_ADD_CALLS}), and a description for the new version (default: the previous version's).
 */
export const DatasetAddCallsReq = z.object({
  project_id: ProjectId,
  dataset: ObjectId,
  calls: z.array(DatasetAddCall).min(1, 'calls must name at least one call').max(MAX_DATASET_ADD_CALLS, `calls must name at most ${MAX_DATASET_ADD_CALLS} calls`),
  description: z.string().nullish(),
});
export type DatasetAddCallsReq = z.input<typeof DatasetAddCallsReq>;

/**
 * Answer: the version now latest (`ref`, `digest`, `version_index`, its row count), how many rows were appended and
 * how many replaced (a call already in the dataset has its row replaced), and whether a new version was made (false
 * when the rows came out the same as the latest version's).
 */
export const DatasetAddCallsRes = z.object({
  ref: z.string(),
  digest: z.string(),
  version_index: z.number().int(),
  rows: z.number().int(),
  added: z.number().int(),
  replaced: z.number().int(),
  created: z.boolean(),
});
export type DatasetAddCallsRes = z.output<typeof DatasetAddCallsRes>;
