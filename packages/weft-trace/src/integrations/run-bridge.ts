/**
 * The one bridge from a framework's runs to weft calls: a foreign run id to its call, the parent found by the foreign parent id, else the current weft call.
 * @module
 */
import type { ActiveCall } from '../instrument/active-call.js';
import type { Call } from '../instrument/call.js';
import type { TraceContext } from '../instrument/context.js';
import { parentContext } from '../instrument/framework-context.js';
import type { OpDefinition } from '../instrument/op-definition.js';
import { markFrameworkModelCall } from './model-request-once.js';
import { startUnder } from './start-recorded.js';

/** One framework run as weft knows it. */
export interface BridgedRun {
  /** Its call; `undefined` for a run not recorded (hidden by the framework, or outside a recorded trace). */
  readonly active: ActiveCall | undefined;
  /** The context its children (and code it runs) start in: its call's, or, for a run not recorded, its parent's. */
  readonly ctx: TraceContext | undefined;
  /** A model request (a chat model or LLM run): see `model-request-once.ts`. */
  readonly model: boolean;
}

/**
 * Framework runs by their foreign id while they run. A run's parent is its foreign parent's call; a root run (or one
 * whose parent is unknown) starts in the current weft context, so it nests under the running `op()`. Sampling is
 * `op()`'s: a root left out leaves its whole tree out.
 */
export class RunBridge {
  private readonly runs = new Map<string, BridgedRun>();
  /** Open model runs by the weft call they started under. */
  private readonly openModels = new Map<Call, Set<BridgedRun>>();

  /** The context a run whose foreign parent is `parentId` starts in. */
  parentOf(parentId: string | undefined): TraceContext | undefined {
    const parent = parentId === undefined ? undefined : this.runs.get(parentId);
    return parent ? parent.ctx : parentContext();
  }

  /** Starts the call of run `id` (`op`, `args` as for `op()`); returns it, or `undefined` when nothing is recorded. */
  start(id: string, parentId: string | undefined, op: OpDefinition, args: unknown[], model: boolean): ActiveCall | undefined {
    const parent = this.parentOf(parentId);
    const active = startUnder(op, args, parent);
    const run: BridgedRun = { active, ctx: active ? active.ctx : { ...parent, unsampled: true }, model };
    this.runs.set(id, run);
    if (active && model) {
      markFrameworkModelCall(active.call);
      const under = active.call.parent;
      if (under !== undefined) {
        let open = this.openModels.get(under);
        if (open === undefined) this.openModels.set(under, (open = new Set()));
        open.add(run);
      }
    }
    return active;
  }

  /** A run that is not recorded (e.g. the framework's own plumbing): its children go to its parent. */
  hide(id: string, parentId: string | undefined): void {
    this.runs.set(id, { active: undefined, ctx: this.parentOf(parentId), model: false });
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
    const under = run.active?.call.parent;
    const open = under === undefined ? undefined : this.openModels.get(under);
    if (open !== undefined && under !== undefined) {
      open.delete(run);
      if (open.size === 0) this.openModels.delete(under);
    }
    return run;
  }

  /** The context of the one model run open directly under `call`, or `undefined` when there are none or several. */
  loneModelUnder(call: Call): TraceContext | undefined {
    const open = this.openModels.get(call);
    if (open === undefined || open.size !== 1) return undefined;
    for (const run of open) return run.ctx;
    return undefined;
  }
}
