/**
 * Renders call records as indented trees: one line per call with status mark, op name, duration and error
 * (`weft calls show`, the demo).
 * @module
 */
import type { CallRecord } from 'weft-trace/wire';
import { deriveStatus, isCallStatus, type CallStatus } from 'weft-trace/wire';

/** A call and its children, children ordered by started_at then id. */
export interface CallTree {
  call: CallRecord;
  children: CallTree[];
}

const MARKS: Record<CallStatus, string> = { success: '✓', error: '✗', cancelled: '⊘', running: '…', descendant_error: '✓' };

const startedMs = (call: CallRecord): number => Date.parse(call.started_at);

function byStart(a: CallRecord, b: CallRecord): number {
  return startedMs(a) - startedMs(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Builds trees from flat records; a call whose parent is absent becomes a root. Roots are ordered like children. */
export function buildTrees(calls: readonly CallRecord[]): CallTree[] {
  const ids = new Set(calls.map((call) => call.id));
  const children = new Map<string, CallRecord[]>();
  const roots: CallRecord[] = [];
  for (const call of calls) {
    if (call.parent_id && ids.has(call.parent_id)) {
      const siblings = children.get(call.parent_id);
      if (siblings) siblings.push(call);
      else children.set(call.parent_id, [call]);
    } else {
      roots.push(call);
    }
  }
  const grow = (call: CallRecord): CallTree => ({
    call,
    children: (children.get(call.id) ?? []).sort(byStart).map(grow),
  });
  return roots.sort(byStart).map(grow);
}

/** The server-derived status, or one inferred from the record when the server gave none. */
export function callStatus(call: CallRecord): CallStatus {
  const status = call.summary?.['status'];
  return isCallStatus(status) ? status : deriveStatus(call.ended_at, call.exception, call.summary);
}

/** Duration in ms: the server's `summary.latency_ms`, else ended_at − started_at; null while running. */
export function durationMs(call: CallRecord): number | null {
  const latency = call.summary?.['latency_ms'];
  if (typeof latency === 'number') return latency;
  return call.ended_at ? Date.parse(call.ended_at) - startedMs(call) : null;
}

/** Short op name: `weave:///e/p/op/name:digest` style refs become `name`. */
export function shortOpName(opName: string): string {
  const afterOp = opName.includes('/op/') ? opName.slice(opName.lastIndexOf('/op/') + 4) : opName;
  return afterOp.replace(/:[^:/]*$/, '') || opName;
}

/** One line describing a recorded exception, cut to `max` characters. */
export function describeException(exception: CallRecord['exception'], max = 100): string {
  if (!exception) return '';
  const text = typeof exception === 'string' ? exception
    : exception.type ? `${exception.type}: ${exception.message}` : exception.message;
  const line = text.split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The text after a call's duration: the error, a note about a failed descendant, or nothing. */
function note(call: CallRecord, status: CallStatus): string {
  if (status === 'error') return `  error: ${describeException(call.exception) || 'unknown error'}`;
  if (status === 'descendant_error') return '  (a descendant failed)';
  if (status === 'running') return '  running';
  if (status === 'cancelled') return '  cancelled (its consumer stopped reading)';
  return '';
}

/** `12.3 ms` for fractional durations, `12 ms` for whole ones, `<1 ms` for 0 (timestamps have ms precision). */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms === 0) return '<1 ms';
  return `${Number.isInteger(ms) ? ms : ms.toFixed(1)} ms`;
}

/** One printed call: its indented mark and name, and the record. */
interface Row {
  label: string;
  call: CallRecord;
}

/** The rows of a tree, depth first, indented two spaces per depth. */
function rows(tree: CallTree, depth = 0): Row[] {
  const label = `${'  '.repeat(depth)}${MARKS[callStatus(tree.call)]} ${shortOpName(tree.call.op_name)}`;
  return [{ label, call: tree.call }, ...tree.children.flatMap((child) => rows(child, depth + 1))];
}

/** A row as text: label padded to `width`, duration right-aligned after it, then any note. */
function formatRow({ label, call }: Row, width: number): string {
  return `${label.padEnd(width)}${formatDuration(durationMs(call)).padStart(8)}${note(call, callStatus(call))}`;
}

/** One input value in a few characters: strings quoted and cut, arrays and objects by size. */
function brief(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 59)}…` : value);
  if (Array.isArray(value)) return `[${value.length} items]`;
  if (value !== null && typeof value === 'object') return '{…}';
  return String(value);
}

/** `op(name=value, ...)` for a heading, from the call's recorded inputs. */
export function describeCall(call: CallRecord): string {
  const args = Object.entries(call.inputs ?? {}).map(([name, value]) => `${name}=${brief(value)}`);
  return `${shortOpName(call.op_name)}(${args.join(', ')})`;
}

/**
 * All trees as text: a numbered heading naming the root call (and, given `link`, its trace id and the viewer link
 * `link` makes of the root), then its tree; one duration column throughout.
 */
export function renderTrees(calls: readonly CallRecord[], link?: (root: CallRecord) => string): string {
  const trees = buildTrees(calls);
  const treeRows = trees.map((tree) => rows(tree));
  const width = Math.max(0, ...treeRows.flat().map((row) => row.label.length + 2));
  return trees
    .map((tree, i) => {
      const where = link ? ` · trace ${tree.call.trace_id} · ${link(tree.call)}` : '';
      const heading = `Trace ${i + 1}/${trees.length} · ${describeCall(tree.call)}${where}`;
      return [heading, ...(treeRows[i] ?? []).map((row) => formatRow(row, width))].join('\n');
    })
    .join('\n\n');
}
