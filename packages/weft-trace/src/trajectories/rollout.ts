/**
 * One rollout in progress: the conversations its model requests add up to, its reward, metrics and logs, and the
 * trajectory they make.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import type { ExchangeRecorder } from '../instrument/context.js';
import type { Tool, Trajectory } from '../schema/trajectories.js';
import { messageKey, messageOf, type Exchange } from './chat-shape.js';
import { exchangesOf } from './exchanges.js';

/** One conversation: messages and choices in order, the tools offered, and each entry's key (see `messageKey`). */
interface History {
  messages_and_choices: unknown[];
  tools?: Tool[] | undefined;
  keys: string[];
}

/** The ids a trajectory links to: its rollout's call and trace. */
interface CallIds {
  id: string;
  traceId: string;
  projectId: string;
}

const BRAND = Symbol.for('weft.rollout');

/** True for a {@link Rollout} of this copy of weft or of another (the ESM and CJS builds share the call context). */
export function isRollout(value: unknown): value is Rollout {
  return value !== null && typeof value === 'object' && (value as { [BRAND]?: unknown })[BRAND] === true;
}

/**
 * A rollout's state, carried in the call context (`TraceContext.rollout`) so the model-call wrappers find it.
 * A request whose messages start with the whole of a conversation already recorded continues it (the longest
 * such); any other starts a new one: the first conversation is the trajectory's `messages_and_choices`, the
 * others (sub-agents) its `additional_histories`.
 */
export class Rollout implements ExchangeRecorder {
  readonly [BRAND] = true;
  /** ISO 8601 UTC, when the rollout started. */
  readonly startTime = new Date().toISOString();
  reward: number | undefined;
  readonly metrics: Record<string, number | boolean> = {};
  readonly logs: string[] = [];
  private readonly histories: History[] = [];
  private call: CallIds | undefined;

  /** True once the rollout ran as a recorded call (after `init()`, in a sampled trace): only then are model calls captured. */
  get traced(): boolean {
    return this.call !== undefined;
  }

  /** Links the rollout to its call (the first one bound: the outermost `trajectory()` op). */
  bindCall(call: CallIds): void {
    this.call ??= call;
  }

  exchange(format: string, request: Readonly<Record<string, unknown>>, response: unknown): void {
    try {
      for (const ex of exchangesOf(format, request as Record<string, unknown>, response)) this.add(ex);
    } catch (err) {
      diag.warn(`trajectory: could not record a ${format} exchange: ${safeMessage(err)}`);
    }
  }

  /** Adds an exchange: the messages its conversation does not hold yet, then its choice. */
  add(ex: Exchange): void {
    const keys = ex.messages.map(messageKey);
    const history = this.continued(keys);
    const choiceKey = messageKey(messageOf(ex.choice));
    if (history === undefined) {
      this.histories.push({ messages_and_choices: [...ex.messages, ex.choice], tools: ex.tools, keys: [...keys, choiceKey] });
      return;
    }
    history.messages_and_choices.push(...ex.messages.slice(history.keys.length), ex.choice);
    history.keys.push(...keys.slice(history.keys.length), choiceKey);
    history.tools ??= ex.tools;
  }

  /** The longest recorded conversation whose keys start `keys`. */
  private continued(keys: string[]): History | undefined {
    let best: History | undefined;
    for (const h of this.histories) {
      if (h.keys.length > keys.length || (best && best.keys.length >= h.keys.length)) continue;
      if (h.keys.every((k, i) => k === keys[i])) best = h;
    }
    return best;
  }

  /**
   * The trajectory so far: `reward` (0 when never set), `messages_and_choices` and `tools` of the first
   * conversation, the others as `additional_histories`, `metrics`, `logs`, `start_time`, and `metadata`
   * `{project_id, trace_id, call_id}` (its call) when the rollout was traced.
   */
  toTrajectory(): Trajectory {
    const [main, ...rest] = this.histories;
    const t: Trajectory = { reward: this.reward ?? 0, messages_and_choices: main ? main.messages_and_choices.slice() : [] };
    if (main?.tools) t.tools = main.tools;
    if (rest.length > 0) t.additional_histories = rest.map((h) => (h.tools ? { messages_and_choices: h.messages_and_choices.slice(), tools: h.tools } : { messages_and_choices: h.messages_and_choices.slice() }));
    t.metrics = { ...this.metrics };
    t.logs = this.logs.slice();
    t.start_time = this.startTime;
    if (this.call) t.metadata = { project_id: this.call.projectId, trace_id: this.call.traceId, call_id: this.call.id };
    return t;
  }
}
