/**
 * trajectory(): marks a function as one rollout, whose model calls (through the wrappers) become a trajectory;
 * setReward(), addMetric() and addLog() inside it.
 * @module
 */
import { activeContext, runInContext } from '../instrument/context.js';
import type { OpOptions } from '../instrument/op-options.js';
import { parameterNames } from '../instrument/param-names.js';
import type { AnyFunction } from '../instrument/trace-call.js';
import { wrap, type Op } from '../instrument/wrap.js';
import { diag } from '../internal/diag.js';
import type { Trajectory } from '../schema/trajectories.js';
import { isRollout, Rollout } from './rollout.js';

const TRAJECTORY = Symbol.for('weft.trajectory');

/** What {@link TrajectoryOp.capture} resolves to: the function's value and the rollout's trajectory. */
export interface CapturedTrajectory<T> {
  output: T;
  trajectory: Trajectory;
}

/** A rollout function: exactly `F` to callers (an op, with `invoke()`), plus `capture()`. */
export type TrajectoryOp<F extends AnyFunction> = Op<F> & {
  /**
   * Runs one rollout and resolves to `{output, trajectory}`; rejects as the function does (the error is
   * recorded on the rollout's call first).
   */
  capture(this: ThisParameterType<F>, ...args: Parameters<F>): Promise<CapturedTrajectory<Awaited<ReturnType<F>>>>;
};

/** True for functions made by {@link trajectory}. */
export function isTrajectory(fn: unknown): fn is TrajectoryOp<AnyFunction> {
  return typeof fn === 'function' && (fn as { [TRAJECTORY]?: boolean })[TRAJECTORY] === true;
}

/**
 * Marks `fn` as one rollout: an op (same options as `op()`, same type) whose model calls made through
 * `wrapOpenAI` (chat completions and responses), `wrapAnthropic` and `wrapAISDK` become a trajectory, in order:
 * each request's messages not yet recorded, then its choice as the provider returned it (a stream's folded into
 * one, `logprobs` kept); the tools offered as `tools`; conversations that do not continue the first (sub-agents)
 * as `additional_histories`; `start_time`; `metadata.project_id` / `trace_id` / `call_id`: the rollout's call.
 * Messages of other formats (Anthropic, the Responses API, the AI SDK) are converted to OpenAI's chat shape.
 *
 * Get the trajectory with `capture()` or {@link gatherTrajectoryGroups}; a plain call runs the rollout and keeps
 * only its trace. Called inside another rollout, it joins that one. Requests are captured from traced calls:
 * after `init()`, in a sampled trace.
 * @example
 * const solve = trajectory(async function solve(q: string) {
 *   const r = await openai.chat.completions.create({ model, messages: [{ role: 'user', content: q }] });
 *   setReward(r.choices[0]!.message.content === '42' ? 1 : 0);
 * });
 * const { trajectory: t } = await solve.capture('6 x 7?');
 * @throws {TypeError} when `fn` is not a function or `options.name` is empty (at wrap time).
 * @see The interface spec, "Trajectory" and endpoint 1 "Log trajectories"
 */
export function trajectory<F extends AnyFunction>(fn: F, options: OpOptions<Parameters<F>, ReturnType<F>> = {}): TrajectoryOp<F> {
  if (typeof fn !== 'function') throw new TypeError(`trajectory(): expected a function, got ${fn === null ? 'null' : typeof fn}`);
  const body = function (this: unknown, ...args: unknown[]): unknown {
    const ctx = activeContext();
    if (ctx?.call && isRollout(ctx.rollout)) ctx.rollout.bindCall(ctx.call);
    return fn.apply(this, args) as unknown;
  };
  const names = options.parameterNames ?? (parameterNames(fn) as string[]);
  const traced = wrap(body as unknown as F, { ...options, name: options.name ?? (fn.name || 'trajectory'), parameterNames: names });
  const inRollout = (fresh: boolean, run: () => unknown): { value: unknown; rollout: Rollout } => {
    const ctx = activeContext();
    if (!fresh && isRollout(ctx?.rollout)) return { value: run(), rollout: ctx.rollout };
    const rollout = new Rollout();
    return { value: runInContext({ ...ctx, rollout }, run), rollout };
  };
  const out = function (this: unknown, ...args: unknown[]): unknown {
    return inRollout(false, () => traced.apply(this as ThisParameterType<F>, args as Parameters<F>)).value;
  };
  const invoke = function (this: unknown, ...args: unknown[]): unknown {
    return inRollout(false, () => traced.invoke.apply(this as ThisParameterType<F>, args as Parameters<F>)).value;
  };
  const capture = async function (this: unknown, ...args: unknown[]): Promise<CapturedTrajectory<unknown>> {
    const { value, rollout } = inRollout(true, () => traced.apply(this as ThisParameterType<F>, args as Parameters<F>));
    const output = await value;
    if (!rollout.traced) diag.once('trajectory-untraced', 'warn', 'trajectory(): a rollout ran untraced (before init(), disabled, or left out by sampleRate), so its model calls were not captured');
    return { output, trajectory: rollout.toTrajectory() };
  };
  Object.defineProperty(out, 'name', { value: fn.name, configurable: true });
  Object.defineProperty(out, 'length', { value: fn.length, configurable: true });
  Object.defineProperty(out, Symbol.for('weft.op'), { value: true });
  Object.defineProperty(out, TRAJECTORY, { value: true });
  Object.defineProperty(out, 'invoke', { value: invoke, configurable: true, writable: true });
  Object.defineProperty(out, 'capture', { value: capture, configurable: true, writable: true });
  return out as unknown as TrajectoryOp<F>;
}

/** The rollout running here, or `undefined` (said once per helper). */
function current(helper: string): Rollout | undefined {
  const r = activeContext()?.rollout;
  if (isRollout(r)) return r;
  diag.once(`trajectory-${helper}`, 'warn', `${helper}() called outside a trajectory(): ignored`);
  return undefined;
}

/**
 * Sets the reward of the running rollout (the last value set wins; a rollout that never sets one has reward 0).
 * Outside a rollout, or with a value that is not a finite number, it does nothing (and says so once).
 */
export function setReward(reward: number): void {
  const r = current('setReward');
  if (r === undefined) return;
  if (typeof reward !== 'number' || !Number.isFinite(reward)) {
    diag.warn(`setReward(): expected a finite number, got ${String(reward)} (${typeof reward}); ignored`);
    return;
  }
  r.reward = reward;
}

/**
 * Sets metric `name` of the running rollout (`metrics[name]`; the log endpoint averages numbers and booleans
 * as 1/0). Outside a rollout it does nothing.
 */
export function addMetric(name: string, value: number | boolean): void {
  const r = current('addMetric');
  if (r !== undefined) r.metrics[name] = value;
}

/** Appends `text` to the running rollout's `logs`. Outside a rollout it does nothing. */
export function addLog(text: string): void {
  const r = current('addLog');
  if (r !== undefined) r.logs.push(String(text));
}
