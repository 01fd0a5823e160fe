/**
 * The default memory budget of the export queue: 1/8 of the memory the process may use, from 64 MiB to 256 MiB.
 * @module
 */
import { nodeBuiltin } from './runtime.js';

const MIB = 1024 * 1024;
/** The budget where the process's memory cannot be read (Vercel Edge, workerd), and the least one. */
export const MIN_QUEUE_BYTES = 64 * MIB;
/** The most the default takes, however much memory there is. */
export const MAX_QUEUE_BYTES = 256 * MIB;

/**
 * `maxQueueBytes` when the app does not set it: 1/8 of the memory the process may use (its cgroup limit,
 * `process.constrainedMemory()`, or the machine's memory, `os.totalmem()`, whichever is less), kept between
 * {@link MIN_QUEUE_BYTES} and {@link MAX_QUEUE_BYTES}. A burst of 200,000 traced calls with small inputs holds about
 * 90 MB of serialized events until the server has taken them (bench/history/2026-12-02-issue-47-burst.md), so a
 * machine with 2 GiB or more keeps such a burst in memory rather than writing it to the disk spool.
 */
export function defaultQueueBytes(): number {
  const limits: number[] = [];
  try {
    const constrained = (globalThis as { process?: { constrainedMemory?: () => number | undefined } }).process?.constrainedMemory?.();
    if (constrained !== undefined && constrained > 0) limits.push(constrained);
    const total = nodeBuiltin('node:os')?.totalmem();
    if (total !== undefined && total > 0) limits.push(total);
  } catch {
    // a runtime whose os module answers nothing: the least budget
  }
  if (limits.length === 0) return MIN_QUEUE_BYTES;
  return Math.min(MAX_QUEUE_BYTES, Math.max(MIN_QUEUE_BYTES, Math.floor(Math.min(...limits) / 8)));
}
