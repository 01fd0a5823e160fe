/**
 * A dataset version's rows as a table: input, expected output and, for rows made from calls, a link to the source call.
 * @module
 */
import { parseCallRef } from 'weft-trace/viewer';
import { href } from '../route';

/** A cell's text: a string as is, any other value as compact JSON, cut to `max` characters (what it is, not its first text). */
export function cellText(v: unknown, max = 120): string {
  const text = typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A link to the row's source call (the trace view opens a call id with that call selected), or nothing. */
export function SourceLink({ project, row }: { project: string; row: unknown }) {
  const source = parseCallRef((row as { source_call?: unknown } | null)?.source_call);
  if (!source || source.project !== project) return <span class="muted">—</span>;
  return <a class="source-call" href={href({ view: 'trace', project, traceId: source.callId })} data-call={source.callId}>call {source.callId.slice(-8)}</a>;
}

/** One row's cells: input (the whole row but `expected` and `source_call` when it has no `input`), expected, source. */
export function RowCells({ project, row }: { project: string; row: unknown }) {
  const r = (row ?? {}) as Record<string, unknown>;
  const { expected, source_call: _source, ...rest } = r;
  const input = 'input' in r ? r['input'] : rest;
  return (
    <>
      <td class="ds-in" title={JSON.stringify(input)}>{cellText(input)}</td>
      <td class="ds-exp" title={JSON.stringify(expected)}>{cellText(expected)}</td>
      <td><SourceLink project={project} row={row} /></td>
    </>
  );
}

/** The rows of a version, numbered from 0. */
export function DatasetRows({ project, rows }: { project: string; rows: readonly unknown[] }) {
  if (rows.length === 0) return <p class="empty">No rows.</p>;
  return (
    <table class="ds-rows">
      <thead><tr><th class="num">#</th><th>input</th><th>expected</th><th>source</th></tr></thead>
      <tbody>{rows.map((row, i) => <tr key={i} data-row={i}><td class="num">{i}</td><RowCells project={project} row={row} /></tr>)}</tbody>
    </table>
  );
}
