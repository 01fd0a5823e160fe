/**
 * op(): wraps a function so each call is recorded with inputs, output or exception, timing and its parent.
 * @module
 */
import { diag } from '../internal/diag.js';
import { safeMessage } from '../internal/safe-message.js';
import { Call } from './call.js';
import { captureDisplayName, captureInputs, captureOutput, describeError, type OpMeta } from './capture.js';
import { activeContext, runInContext } from './context.js';
import type { OpOptions } from './op-options.js';
import { parameterNames } from './param-names.js';
import { getSink, type CallSink } from './runtime.js';
import { serialize } from './serialize.js';
import { thenOf, watchThenable, type Settle } from './thenable.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFunction = (...args: any[]) => any;

const WRAPPED = Symbol.for('weft.op');

/**
 * Wraps `fn` so that every call is traced: a start event (inputs by parameter name, parent and trace)
 * and an end event (output or exception, `summary.status_counts`). The wrapper has `fn`'s exact type:
 * sync functions stay sync; a returned native promise comes back as a promise of the same value that
 * rejects alike, any other thenable as a Proxy that behaves the same; exceptions are rethrown unchanged.
 * Before `init()` or when tracing is disabled it just calls `fn`.
 * @example
 * const add = op(async function add(a: number, b: number) { return a + b; });
 * await add(1, 2); // recorded as op "add" with inputs {a: 1, b: 2} and output 3
 * @throws {TypeError} when `fn` is not a function or `options.name` is empty (at wrap time, never at call time).
 */
export function op<F extends AnyFunction>(fn: F, options: OpOptions<Parameters<F>, ReturnType<F>> = {}): F {
  if (typeof fn !== 'function') {
    throw new TypeError(`op(): expected a function, got ${fn === null ? 'null' : typeof fn}`);
  }
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name.trim() === '')) {
    throw new TypeError(`op(): option name must be a non-empty string, got ${JSON.stringify(options.name)} (${typeof options.name})`);
  }
  if ((fn as { [WRAPPED]?: boolean })[WRAPPED]) {
    diag.warn(`op(): "${fn.name}" is already an op; returning it as is (options of the second op() are ignored)`);
    return fn;
  }
  const meta: OpMeta = {
    name: options.name ?? (fn.name || 'anonymous'),
    options: options as OpOptions<unknown[], unknown>,
    names: options.parameterNames ?? parameterNames(fn),
  };
  const traced = function (this: unknown, ...args: unknown[]): unknown {
    const sink = getSink();
    if (sink == null) {
      if (sink === undefined) warnNoInit();
      return fn.apply(this, args);
    }
    const parentCtx = activeContext();
    const call = startCall(sink, meta, args, parentCtx?.call);
    if (call === undefined) return fn.apply(this, args);
    return runInContext({ ...parentCtx, call }, invoke, fn, this, args, sink, meta, call);
  };
  Object.defineProperty(traced, 'name', { value: fn.name, configurable: true });
  Object.defineProperty(traced, 'length', { value: fn.length, configurable: true });
  Object.defineProperty(traced, WRAPPED, { value: true });
  return traced as F;
}

function warnNoInit(): void {
  diag.once('no-init', 'warn', 'op() called before init(): calls run but are not recorded. Call init({ project }) first.');
}

/** Creates the call and queues its start event; `undefined` if anything in tracing failed. */
function startCall(sink: CallSink, meta: OpMeta, args: unknown[], parent: Call | undefined): Call | undefined {
  try {
    const call = new Call({
      projectId: sink.projectId,
      opName: meta.name,
      inputs: captureInputs(meta, args),
      attributes: meta.options.attributes ? (serialize(meta.options.attributes) as Record<string, unknown>) : {},
      parent,
      displayName: captureDisplayName(meta, args),
      userId: sink.userId,
    });
    sink.start(call.startEvent());
    return call;
  } catch (err) {
    diag.warn(`could not start a call of op "${meta.name}": ${safeMessage(err)}`);
    return undefined;
  }
}

function invoke(fn: AnyFunction, self: unknown, args: unknown[], sink: CallSink, meta: OpMeta, call: Call): unknown {
  const settle: Settle = (value, err, failed) => finish(sink, meta, call, value, err, failed);
  let result: unknown;
  try {
    result = fn.apply(self, args);
  } catch (err) {
    settle(undefined, err, true);
    throw err;
  }
  const then = thenOf(result);
  if (then) return watchThenable(result as object, then, settle);
  settle(result, undefined, false);
  return result;
}

function finish(sink: CallSink, meta: OpMeta, call: Call, value: unknown, err: unknown, failed: boolean): void {
  if (call.ended) return;
  try {
    const output = failed ? undefined : captureOutput(meta, value);
    const end = call.end(output, failed ? describeError(err) : undefined);
    if (end) sink.end(end);
  } catch (e) {
    diag.warn(`could not end a call of op "${meta.name}": ${safeMessage(e)}`);
  }
}
