/**
 * `summary.weave`: the fields Weave's trace server derives into every call record's summary (its
 * `make_derived_summary_fields`), mapped onto weft's own derivations: `status` (weft's `summary.status`),
 * `trace_name` (the display name, else the op's short name) and `latency_ms` (once the call ended).
 * @module
 */
import { opShortName } from 'weft-trace/wire';
import type { StoredCallRecord } from './records.js';

/** Keys of `summary.weave` the server owns: a stored value under them is replaced. */
const DERIVED_KEYS = new Set(['status', 'trace_name', 'latency_ms']);

/** `summary.weave.trace_name`: a non-empty `display_name`, else the short name of `op_name` (`opShortName`). */
export function traceName(displayName: string | null | undefined, opName: string): string {
  return displayName ? displayName : opShortName(opName);
}

/**
 * Sets `summary.weave` on each record (in place): what the stored summary held under `weave`, less the derived keys,
 * then `status`, `trace_name` and, when the call ended, `latency_ms` (ms). Run after `summary.status` is final
 * (descendant errors marked).
 */
export function addWeaveSummary(records: readonly StoredCallRecord[]): void {
  for (const r of records) {
    const stored = r.summary['weave'];
    const weave: Record<string, unknown> = {};
    if (stored !== null && typeof stored === 'object' && !Array.isArray(stored)) {
      for (const [k, v] of Object.entries(stored)) if (!DERIVED_KEYS.has(k)) weave[k] = v;
    }
    weave['status'] = r.summary.status;
    weave['trace_name'] = traceName(r.display_name, r.op_name);
    if (r.summary.latency_ms !== null) weave['latency_ms'] = r.summary.latency_ms;
    r.summary['weave'] = weave;
  }
}
