/**
 * The registry's slot of the export counters (`getExportStats()`), shared by every copy of weft in the process.
 * @module
 */
import { getGlobal } from '../internal/global.js';

/**
 * The object in the process-wide registry's `exportStats` slot, created empty by the first module that asks for it.
 * Each counters module fills its own fields with `??=` as it loads (export-stats.ts the event counters,
 * sampling-stats.ts `sampling`, file-stats.ts `files`), so a registry made by a copy of weft without some of them
 * gets those added, and every copy counts into the same objects. Typed loosely here: each owner narrows its field.
 */
export function exportStatsSlot(): Record<string, unknown> {
  const shared = getGlobal() as { exportStats: Record<string, unknown> | undefined };
  return (shared.exportStats ??= {});
}
