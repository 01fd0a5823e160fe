/**
 * The one bridge from a framework's runs to weft calls: a foreign run id to its call, the parent found by the foreign parent id, else the current weft call.
 * @module
 */
import type { ActiveCall } from '../instrument/active-call.js';
import type { Call } from '../instrument/call.js';
import type { TraceContext } from '../instrument/context.js';
import { isWithin, parentContext } from '../instrument/framework-context.js';
import type { OpDefinition } from '../instrument/op-definition.js';
import { markFrameworkModelCall, providerRequests } from './model-request-once.js';
import { pairScore, requestStrings } from './model-request-match.js';
import { startUnder } from './start-recorded.js';

/** One framework run as weft knows it. */
export interface BridgedRun {
  /** Its call; `undefined` for a run not recorded (hidden by the framework, or outside a recorded trace). */
  readonly active: ActiveCall | undefined;
  /** The context its children (and code it runs) start in: its call's, or, for a run not recorded, its parent's. */
  readonly ctx: TraceContext | undefined;
  /**
   * A model run's (a chat model's or LLM's, see `model-request-once.ts`) request texts, its messages' texts or its
   * prompts, which pair a provider request with it; empty for any other run.
   */
  readonly texts: readonly string[];
}

const NO_TEXTS: readonly string[] = [];

/**
 * Framework runs by their foreign id while they run. A run's parent is its foreign parent's call; a root run (or one
 * whose parent is unknown) starts in the current weft context, so it nests under the running `op()`. Sampling is
 * `op()`'s: a root left out leaves its whole tree out.
 */
export class RunBridge {
  private readonly runs = new Map<string, BridgedRun>();
  /** The model runs with a call that are open, in start order. */
  private readonly openModels = new Set<BridgedRun>();

  /** The context a run whose foreign parent is `parentId` starts in. */
  parentOf(parentId: string | undefined): TraceContext | undefined {
    const parent = parentId === undefined ? undefined : this.runs.get(parentId);
    return parent ? parent.ctx : parentContext();
  }

  /**
   * Starts the call of run `id` (`op`, `args` as for `op()`); returns it, or `undefined` when nothing is recorded.
   * @param texts - for a model run, its request texts ({@link BridgedRun.texts}); `undefined` for any other run.
   */
  start(id: string, parentId: string | undefined, op: OpDefinition, args: unknown[], texts: readonly string[] | undefined): ActiveCall | undefined {
    const parent = this.parentOf(parentId);
    const active = startUnder(op, args, parent);
    const run: BridgedRun = { active, ctx: active ? active.ctx : { ...parent, unsampled: true }, texts: texts ?? NO_TEXTS };
    this.runs.set(id, run);
    if (active && texts !== undefined) {
      markFrameworkModelCall(active.call);
      this.openModels.add(run);
    }
    return active;
  }

  /** A run that is not recorded (e.g. the framework's own plumbing): its children go to its parent. */
  hide(id: string, parentId: string | undefined): void {
    this.runs.set(id, { active: undefined, ctx: this.parentOf(parentId), texts: NO_TEXTS });
  }

  /** The run `id` while it runs. */
  get(id: string): BridgedRun | undefined {
    return this.runs.get(id);
  }

  /** Forgets run `id` (it ended); returns it. */
  end(id: string): BridgedRun | undefined {
    const run = this.runs.get(id);
    if (run === undefined) return undefined;
    this.runs.delete(id);
    this.openModels.delete(run);
    return run;
  }

  /**
   * The context of the open model run that a provider's model request, made where `call` runs (`undefined`: outside
   * any call), belongs to, or `undefined` for none (see `model-request-once.ts`):
   * - the one model run open directly under `call`;
   * - else, among the model runs open directly under `call` (concurrent calls: `Promise.all`, `batch`) or, with none
   *   there, further down (a stream's body, run where the framework's context no longer names the run's parent),
   *   the one whose request texts `request` (the SDK method's arguments) carries best ({@link pairScore}), then
   *   the one with the fewest provider requests so far, then the first started. A request that carries none of
   *   their texts belongs to none of them.
   */
  modelRunFor(call: Call | undefined, request: readonly unknown[]): TraceContext | undefined {
    if (this.openModels.size === 0) return undefined;
    const open = [...this.openModels];
    const direct = open.filter((run) => run.active?.call.parent === call);
    if (direct.length === 1) return direct[0]!.ctx;
    const candidates = direct.length > 0 ? direct : call === undefined ? open : open.filter((run) => isWithin(run.active?.call, call));
    if (candidates.length === 0) return undefined;
    const carried = requestStrings(request);
    let best: { run: BridgedRun; score: number; requests: number } | undefined;
    for (const run of candidates) {
      const score = pairScore(run.texts, carried);
      if (score === undefined || (best !== undefined && score < best.score)) continue;
      const requests = run.active === undefined ? 0 : providerRequests(run.active.call);
      if (best === undefined || score > best.score || requests < best.requests) best = { run, score, requests };
    }
    return best?.run.ctx;
  }
}
