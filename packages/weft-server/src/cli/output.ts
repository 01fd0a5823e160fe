/**
 * How the CLI writes for people: colors only on a terminal and never with `NO_COLOR`, tables, and the
 * short forms of times, latencies, tokens and costs.
 * @module
 */
import Table from 'cli-table3';
import { DateTime } from 'luxon';
import pc from 'picocolors';
import type { CallRecord } from 'weft-trace/wire';
import type { CallStatus } from 'weft-trace/wire';
import { callStatus, formatDuration } from './trace-tree.js';

/** Color functions: real ones on a TTY without `NO_COLOR` (https://no-color.org), identity otherwise. */
export type Colors = ReturnType<typeof pc.createColors>;

/** True when `stream` is a terminal and the environment allows color (`NO_COLOR` unset or empty). */
export function colorEnabled(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && !env.NO_COLOR && env.TERM !== 'dumb';
}

/** Color functions, real or identity. */
export function colors(enabled: boolean): Colors {
  return pc.createColors(enabled);
}

/** The color functions for a stream. */
export function colorsFor(stream: NodeJS.WriteStream): Colors {
  return colors(colorEnabled(stream));
}

/** A status word colored by meaning: green success, red error, yellow running, dim cancelled. */
export function statusWord(status: CallStatus, c: Colors): string {
  switch (status) {
    case 'success': return c.green('success');
    case 'error': return c.red('error');
    case 'descendant_error': return c.yellow('descendant_error');
    case 'running': return c.cyan('running');
    case 'cancelled': return c.dim('cancelled');
  }
}

/** A table with a bold header; plain ASCII borders are left out so the text pastes cleanly. */
export function makeTable(head: string[], c: Colors, align: Array<'left' | 'right'> = []): Table.Table {
  return new Table({
    head: head.map((h) => c.bold(h)),
    colAligns: align,
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 2 },
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '',
      'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '',
    },
  });
}

/** `2026-11-23 10:52:01` in the local time zone (`TZ`), from an ISO 8601 time. */
export function localTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const t = DateTime.fromISO(iso);
  return t.isValid ? t.toLocal().toFormat('yyyy-LL-dd HH:mm:ss') : iso;
}

/** Total tokens over every model of `summary.usage`; null when the call reports no usage. */
export function totalTokens(call: CallRecord): number | null {
  const usage = call.summary?.usage;
  if (!usage) return null;
  let sum = 0;
  let any = false;
  for (const u of Object.values(usage)) {
    const v = (u as Record<string, unknown>).total_tokens;
    const p = (u as Record<string, unknown>).prompt_tokens ?? (u as Record<string, unknown>).input_tokens;
    const o = (u as Record<string, unknown>).completion_tokens ?? (u as Record<string, unknown>).output_tokens;
    const n = typeof v === 'number' ? v : (typeof p === 'number' ? p : 0) + (typeof o === 'number' ? o : 0);
    sum += n;
    any = true;
  }
  return any ? sum : null;
}

/** Total cost in USD over every model of `summary.costs` (`include_costs`); null when none is known. */
export function totalCost(call: CallRecord): number | null {
  const costs = call.summary?.costs;
  if (!costs || Object.keys(costs).length === 0) return null;
  return Object.values(costs).reduce((sum, c) => sum + (typeof c.total_cost === 'number' ? c.total_cost : 0), 0);
}

/** `$0.0123` (4 significant decimals below a cent), `—` when unknown. */
export function formatCost(usd: number | null): string {
  if (usd === null) return '—';
  return usd >= 0.01 ? `$${usd.toFixed(2)}` : `$${usd.toPrecision(2)}`;
}

/** `1,234` tokens, `—` when unknown. */
export function formatCount(n: number | null): string {
  return n === null ? '—' : n.toLocaleString('en-US');
}

/** One row of `weft calls ls` / `tail`: time, op, status, latency, tokens, cost, id, trace id. */
export function callRow(call: CallRecord, c: Colors): string[] {
  const status = callStatus(call);
  const latency = call.summary?.latency_ms ?? (call.ended_at ? Date.parse(call.ended_at) - Date.parse(call.started_at) : null);
  return [
    localTime(call.started_at),
    call.display_name ?? call.op_name,
    statusWord(status, c),
    formatDuration(status === 'running' ? null : latency),
    formatCount(totalTokens(call)),
    formatCost(totalCost(call)),
    c.dim(call.id),
    c.dim(call.trace_id),
  ];
}

/** Header of {@link callRow}, with the right-aligned numeric columns. */
export const CALL_COLUMNS = { head: ['time', 'op', 'status', 'latency', 'tokens', 'cost', 'id', 'trace'], align: ['left', 'left', 'left', 'right', 'right', 'right', 'left', 'left'] as Array<'left' | 'right'> };
