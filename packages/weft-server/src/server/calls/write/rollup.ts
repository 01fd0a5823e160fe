/**
 * Status counts and usage rolled up a trace by the server, for the calls whose sender did not count them (OTel spans, calls from another process): the pure part both stores share.
 * @module
 */

/** One stored call of a trace, as the rollup reads it (its start has landed). */
export interface RollupRow {
  id: string;
  parent_id: string | null;
  /** True for a call made from an OTel span (its start carried `otel_dump`). */
  otel: boolean | number;
  /** True for a call whose end said `counted_in_parent: false` (its parent is in another process, or had ended). */
  uncounted: boolean | number;
  /** The stored summary (JSON text): the end's as sent, or the rolled-up one when `sent_summary` is set. */
  summary: string | null;
  /** The end's summary as sent (JSON text) when the server rolled descendants into `summary`, else null. */
  sent_summary: string | null;
}

/** A row whose summary the rollup changes: the new `summary` and the `sent_summary` to keep beside it. */
export interface RollupWrite {
  id: string;
  summary: string;
  sent_summary: string | null;
}

type Numbers = Record<string, number>;
/** What one call adds into an ancestor that did not count it: status counts, and usage per model. */
interface Tally {
  counts: Numbers;
  usage: Record<string, Numbers>;
}

const emptyTally = (): Tally => ({ counts: {}, usage: {} });
const isEmpty = (t: Tally): boolean => Object.keys(t.counts).length === 0 && Object.keys(t.usage).length === 0;

function addNumbers(into: Numbers, from: unknown): void {
  if (from === null || typeof from !== 'object') return;
  for (const [k, v] of Object.entries(from)) if (typeof v === 'number' && Number.isFinite(v)) into[k] = (into[k] ?? 0) + v;
}

function addTally(into: Tally, counts: unknown, usage: unknown): void {
  addNumbers(into.counts, counts);
  if (usage === null || typeof usage !== 'object') return;
  for (const [model, fields] of Object.entries(usage)) addNumbers((into.usage[model] ??= {}), fields);
}

/**
 * Whether the OTel span call `row`'s own usage is the sum of the requests below it, which `extra` (what its children
 * add) then holds: a span that reports usage over requests recorded as spans (or calls) of their own, as the AI SDK's
 * `ai.generateText` over its `ai.generateText.doGenerate` spans, or a GenAI `invoke_agent` span over its `chat` spans.
 * Its own usage is then left out, so each request counts once (the rule of docs/integrations.md, "One model request,
 * one model call"); with nothing below reporting usage it counts.
 */
const aggregatesBelow = (row: RollupRow, extra: Tally): boolean => Boolean(row.otel) && Object.keys(extra.usage).length > 0;

function parseSummary(text: string | null): Record<string, unknown> | undefined {
  if (text === null) return undefined;
  const v = JSON.parse(text) as unknown;
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * The summaries of one trace with what no sender counted rolled up: a call's `status_counts` and `usage` (numbers
 * added per key, per model) gain those of each child whose edge was not counted by the client, where an edge is
 * uncounted when the parent or the child is an OTel span call, or the child is marked `uncounted` (a call of another
 * process, joined by `traceparent`). Across an uncounted edge a child adds its own summary plus what was rolled into
 * it; across a counted edge (weft's op() counts its op() children itself: its end summary holds them) only what was
 * rolled into it, which its sender never saw. So a failed span or another process's tokens three levels down reach the
 * root through spans and ops alike, and nothing is added twice. An OTel span's own usage is left out when calls below
 * it report usage ({@link aggregatesBelow}): it is theirs, summed again by the span's instrumentation.
 * A call without an end passes its children's tallies up but is not written. The result depends only on the
 * stored rows, never on the order their starts and ends arrived in; a cycle of parent ids is cut.
 *
 * @param rows - every call of the trace with a stored start.
 * @returns the rows whose stored summary must change (summary, and the sent one kept in `sent_summary`).
 */
export function rollUpTrace(rows: readonly RollupRow[]): RollupWrite[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const children = new Map<string, RollupRow[]>();
  for (const r of rows) {
    if (r.parent_id === null || !byId.has(r.parent_id)) continue;
    const list = children.get(r.parent_id);
    if (list) list.push(r);
    else children.set(r.parent_id, [r]);
  }
  const added = new Map<string, Tally>();
  const total = new Map<string, Tally>();
  // post-order without recursion (traces may be deep); `seen` cuts parent-id cycles
  const seen = new Set<string>();
  for (const top of rows) {
    if (seen.has(top.id)) continue;
    const stack: [RollupRow, boolean][] = [[top, false]];
    while (stack.length > 0) {
      const [row, expanded] = stack.pop()!;
      if (expanded) {
        const extra = emptyTally();
        for (const child of children.get(row.id) ?? []) {
          const t = row.otel || child.otel || child.uncounted ? total.get(child.id) : added.get(child.id);
          if (t) addTally(extra, t.counts, t.usage);
        }
        added.set(row.id, extra);
        const own = parseSummary(row.sent_summary ?? row.summary);
        const sum = emptyTally();
        addTally(sum, own?.['status_counts'], aggregatesBelow(row, extra) ? undefined : own?.['usage']);
        addTally(sum, extra.counts, extra.usage);
        total.set(row.id, sum);
        continue;
      }
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      stack.push([row, true]);
      for (const child of children.get(row.id) ?? []) if (!seen.has(child.id)) stack.push([child, false]);
    }
  }
  return rows.flatMap((row) => writeOf(row, added.get(row.id) ?? emptyTally()));
}

/** The write of one row given what its children add: none when nothing changes. */
function writeOf(row: RollupRow, extra: Tally): RollupWrite[] {
  const sentText = row.sent_summary ?? row.summary;
  const sent = parseSummary(sentText);
  if (sent === undefined) return []; // not ended (or no summary): nothing to write
  if (isEmpty(extra)) return row.sent_summary === null ? [] : [{ id: row.id, summary: sentText as string, sent_summary: null }];
  const merged: Record<string, unknown> = { ...sent };
  const counts = emptyTally();
  addTally(counts, sent['status_counts'], aggregatesBelow(row, extra) ? undefined : sent['usage']);
  addTally(counts, extra.counts, extra.usage);
  merged['status_counts'] = counts.counts;
  if (Object.keys(counts.usage).length > 0) merged['usage'] = counts.usage;
  const text = JSON.stringify(merged);
  return text === row.summary && row.sent_summary !== null ? [] : [{ id: row.id, summary: text, sent_summary: sentText }];
}
