/**
 * Monitors (a weft extension, not in the interface spec): online scoring of sampled production calls of one op,
 * stored per project by the server; created, listed and removed over `/weft/monitors/*`, their progress saved there.
 * @module
 */
import { z } from 'zod';
import { ProjectId } from './project-id.js';

export { MONITOR_PATHS, monitorMetric, monitorTriggerRef } from './monitor-refs.js';

/** What a monitor scores with: a built-in scorer's name, or the path (or file URL) of a module exporting one. */
const ScorerSpec = z.string().min(1, 'scorer must not be empty');

/** Body of `create`: the op whose ended calls are scored, the scorer, the sampled fraction and the scorer's options. */
export const MonitorCreateReq = z.object({
  project_id: ProjectId,
  /** The calls' `op_name`: an op's short name (`answer`) or a full op ref. */
  op_name: z.string().min(1, 'op_name must not be empty'),
  scorer: ScorerSpec,
  /** Fraction of the op's calls scored, in (0, 1]. */
  sample_rate: z.number().gt(0, 'sample_rate must be above 0').lte(1, 'sample_rate must be at most 1'),
  /** The scorer's options (the LLM judge's `model`, `rubric`, `rpm`...). */
  options: z.record(z.string(), z.unknown()).nullish(),
});
export type MonitorCreateReq = z.input<typeof MonitorCreateReq>;

/** A stored monitor. `cursor_*` is its progress: the last ended call it has read (by `ended_at`, then `id`). */
export const Monitor = z.object({
  id: z.string(),
  project_id: z.string(),
  op_name: z.string(),
  scorer: z.string(),
  sample_rate: z.number(),
  options: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  cursor_ended_at: z.string().nullable(),
  cursor_call_id: z.string().nullable(),
});
export type Monitor = z.infer<typeof Monitor>;

/** Body of `list`: one project, or every project when absent (a worker serving them all). */
export const MonitorListReq = z.object({ project_id: ProjectId.nullish() });
/** Answer of `list`: oldest first. */
export const MonitorListRes = z.object({ monitors: z.array(Monitor) });
export type MonitorListRes = z.infer<typeof MonitorListRes>;

/** Body of `delete`. */
export const MonitorDeleteReq = z.object({ project_id: ProjectId, id: z.string().min(1) });
/** Answer of `delete`: whether it existed. */
export const MonitorDeleteRes = z.object({ deleted: z.boolean() });

/** Body of `progress`: the last ended call read; only moves forward (an older cursor is ignored). */
export const MonitorProgressReq = z.object({
  project_id: ProjectId,
  id: z.string().min(1),
  cursor_ended_at: z.string().min(1),
  cursor_call_id: z.string().min(1),
});
/** Answer of `progress`: whether the monitor exists (false once removed). */
export const MonitorProgressRes = z.object({ saved: z.boolean() });
