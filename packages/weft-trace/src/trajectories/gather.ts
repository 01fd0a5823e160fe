/**
 * gatherTrajectoryGroups(): n rollouts per scenario, run with bounded concurrency, as trajectory groups ready to log and train on.
 * @module
 */
import { diag } from '../internal/diag.js';
import { startProgress } from '../internal/progress.js';
import { safeMessage } from '../internal/safe-message.js';
import type { Trajectory, TrajectoryGroup } from '../schema/trajectories.js';
import { isTrajectory, trajectory, type TrajectoryOp } from './trajectory.js';

/** Options of {@link gatherTrajectoryGroups}. */
export interface GatherOptions<S> {
  /** Rollouts per scenario, an integer >= 1. @defaultValue 1 */
  rollouts?: number;
  /** Rollouts running at once, an integer >= 1. @defaultValue 8 */
  concurrency?: number;
  /** Sees each failed rollout: the error, its scenario and the rollout's index in its group. Its own errors are ignored. */
  onError?: (error: unknown, scenario: S, rollout: number) => void;
  /** Progress on stderr (a bar on a terminal; nothing when piped). @defaultValue true */
  progress?: boolean;
}

function positiveInt(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new TypeError(`gatherTrajectoryGroups(): option ${name} must be an integer >= 1, got ${String(value)} (${typeof value})`);
  }
  return value;
}

/**
 * Runs `options.rollouts` rollouts of each scenario (`rollout(scenario, index)`, at most `options.concurrency` at
 * once) and resolves to one `TrajectoryGroup` per scenario, in the scenarios' order, each holding its trajectories
 * in rollout order: what `client.trajectories.log(modelId, { split, trajectory_groups })` and
 * `client.trainingJobs.create({ model_id, trajectory_groups })` take as they are. `rollout` may be a
 * {@link trajectory} function, else it is made one (op named after it, else `rollout`), so each rollout is a traced call.
 *
 * A rollout that throws is recorded on its trace (the call's exception), left out of its group, passed to
 * `onError` and counted; the count is reported when the batch ends (the progress line and a diag warning). A
 * scenario whose every rollout failed has no group (the log endpoint refuses an empty group).
 * @example
 * const groups = await gatherTrajectoryGroups(problems, { rollouts: 4, concurrency: 8 }, solve);
 * await client.trajectories.log(modelId, { split: 'train', trajectory_groups: groups });
 * @throws {TypeError} (as a rejection) when `rollouts` or `concurrency` is not an integer >= 1, or `rollout` is not a function.
 * @see The interface spec, "TrajectoryGroup" and endpoint 1 "Log trajectories"
 */
export async function gatherTrajectoryGroups<S>(
  scenarios: Iterable<S>,
  options: GatherOptions<S>,
  rollout: (scenario: S, index: number) => unknown,
): Promise<TrajectoryGroup[]> {
  const n = positiveInt('rollouts', options.rollouts, 1);
  const concurrency = positiveInt('concurrency', options.concurrency, 8);
  if (typeof rollout !== 'function') throw new TypeError(`gatherTrajectoryGroups(): rollout must be a function, got ${typeof rollout}`);
  const run: TrajectoryOp<(scenario: S, index: number) => unknown> = isTrajectory(rollout) ? (rollout as never) : trajectory(rollout, { name: rollout.name || 'rollout' });
  const list = [...scenarios];
  const results: (Trajectory | undefined)[][] = list.map(() => new Array<Trajectory | undefined>(n));
  const total = list.length * n;
  const started = Date.now();
  const progress = startProgress('rollouts', total, { unit: 'rollouts', piped: 'silent', enabled: options.progress !== false });
  let next = 0;
  let done = 0;
  let failed = 0;
  let firstError: unknown;
  const worker = async (): Promise<void> => {
    while (next < total) {
      const at = next++;
      const s = Math.floor(at / n);
      const i = at % n;
      try {
        results[s]![i] = (await run.capture(list[s]!, i)).trajectory;
      } catch (err) {
        failed++;
        firstError ??= err;
        try {
          options.onError?.(err, list[s]!, i);
        } catch {
          // onError's own failure is not the batch's
        }
      }
      progress.update(++done);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(total, 1)) }, worker));
  const failures = failed > 0 ? `, ${failed} failed (first: ${safeMessage(firstError)})` : '';
  progress.stop(`${total - failed} of ${total} rollouts in ${((Date.now() - started) / 1000).toFixed(1)} s${failures}`);
  if (failed > 0) diag.warn(`gatherTrajectoryGroups(): ${failed} of ${total} rollouts failed and were left out (first: ${safeMessage(firstError)})`);
  return results.map((ts) => ts.filter((t): t is Trajectory => t !== undefined)).filter((ts) => ts.length > 0).map((trajectories) => ({ trajectories }));
}
