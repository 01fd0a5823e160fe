/**
 * getCurrentCall() and requireCurrentCall(): the call whose body is running, as a small read-only view.
 * @module
 */
import { WeftError } from '../errors.js';
import type { Call } from './call.js';
import { parentContext } from './framework-context.js';

/** What user code may know of the running call. */
export interface CurrentCall {
  id: string;
  traceId: string;
  parentId: string | undefined;
  opName: string;
}

/** The read-only view of a call that user code gets. */
export function callView(call: Call): CurrentCall {
  return { id: call.id, traceId: call.traceId, parentId: call.parentId, opName: call.opName };
}

/**
 * The running call (inside a framework run's body, e.g. a LangChain tool, the run's call), or `undefined` outside any
 * traced op (or before `init()`, or in an unsampled trace).
 */
export function getCurrentCall(): CurrentCall | undefined {
  const call = parentContext()?.call;
  return call ? callView(call) : undefined;
}

/**
 * The running call.
 * @throws {WeftError} when no traced op is running (use {@link getCurrentCall} to get `undefined` instead).
 */
export function requireCurrentCall(): CurrentCall {
  const call = getCurrentCall();
  if (!call) throw new WeftError('requireCurrentCall(): no traced call is running here (outside op(), or before init())');
  return call;
}
