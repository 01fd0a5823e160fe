/**
 * A variant's run state as its column shows it: the text streamed so far, then the recorded call (its trace), or
 * the error; and a dataset run's rows (each output as it arrives, then its scores) and evaluation run id. Pure: each line of the server's answer folded in.
 * @module
 */
import type { RunLine } from './playground-api';

/** Where a variant's last run stands. */
export interface RunState {
  phase: 'idle' | 'running' | 'done' | 'error';
  text: string;
  callId?: string;
  traceId?: string;
  latencyMs?: number;
  error?: string;
  /** A dataset run's rows (as scored) and its evaluation run id once recorded. */
  rows?: { index: number; output: unknown; scores: Record<string, unknown>; error?: string }[];
  runId?: string;
}

export const IDLE: RunState = { phase: 'idle', text: '' };

type Row = NonNullable<RunState['rows']>[number];

/** `rows` with `row` in place of the one of its index (else added), in index order. */
function withRow(rows: readonly Row[] | undefined, row: Row): Row[] {
  return [...(rows ?? []).filter((r) => r.index !== row.index), row].sort((a, b) => a.index - b.index);
}

/** `state` after `line`. */
export function foldLine(state: RunState, line: RunLine): RunState {
  switch (line.type) {
    case 'delta': return { ...state, text: state.text + line.text };
    case 'end': return { ...state, phase: 'done', text: line.text, latencyMs: line.latency_ms, ...(line.call_id ? { callId: line.call_id } : {}), ...(line.trace_id ? { traceId: line.trace_id } : {}) };
    case 'output': return { ...state, rows: withRow(state.rows, { index: line.index, output: line.text, scores: {} }) };
    case 'row': return { ...state, rows: withRow(state.rows, { index: line.index, output: line.output, scores: line.scores, ...(line.error ? { error: line.error } : {}) }) };
    case 'evaluated': return { ...state, phase: 'done', runId: line.run_id };
    case 'error': return { ...state, phase: 'error', error: line.message };
  }
}
