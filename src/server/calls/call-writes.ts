/**
 * Idempotent writes of call starts and ends (upserts keyed by project_id and id), including ref extraction.
 * @module
 */
import type { CallEndRes, CallStartRes } from '../../schema/calls.js';
import type { Prepare } from '../db/statement-cache.js';
import { extractRefs } from './call-refs.js';
import { applyPendingRenames } from './call-edit-writes.js';
import { rollUpTouched } from './rollup-writes.js';
import { SQLITE_DIALECT } from '../db/dialect.js';
import { sqliteSteps } from '../db/sql-runner.js';
import { END_COLUMNS, KEY_COLUMNS, START_COLUMNS, type UpsertItem, type Value } from './call-fields.js';
import { type StagedCall, stageItems } from './batch-staging.js';

export type { EndInput, StartInput, UpsertItem } from './call-fields.js';

const START_NAMES = START_COLUMNS.map((c) => c.name);
const END_NAMES = END_COLUMNS.map((c) => c.name);

/**
 * Insert of `rows` rows of a key and `columns` each, in one statement; on a stored row, replaces only those
 * columns (the other half of the call is kept). The rows of one statement must have distinct keys.
 */
function upsertSql(columns: readonly string[], rows: number): string {
  const all = [...KEY_COLUMNS, ...columns];
  const row = `(${all.map(() => '?').join(', ')})`;
  return `INSERT INTO calls (${all.join(', ')}) VALUES ${Array.from({ length: rows }, () => row).join(', ')}
    ON CONFLICT (project_id, id) DO UPDATE SET ${columns.map(setColumn).join(', ')}`;
}

/**
 * The update of one column of a stored row: a start's `display_name` only fills an empty name (see {@link writeItems});
 * an end's `summary` is the sent one again (the rollup of rollup-writes.ts runs after).
 */
function setColumn(column: string): string {
  if (column === 'display_name') return 'display_name = coalesce(display_name, excluded.display_name)';
  return column === 'summary' ? 'summary = excluded.summary, sent_summary = NULL' : `${column} = excluded.${column}`;
}

/**
 * Rows per multi-row upsert, largest first: a batch's rows of one kind are written in statements of 64
 * rows, then 8, then 1 (at most 3 statement texts per kind, 64 x 19 = 1,216 parameters at most, under
 * SQLite's 32,766).
 */
const ROWS_PER_STATEMENT = [64, 8, 1] as const;

/** The upsert texts of one kind of row (start only, end only, both) by rows per statement. */
function upsertTexts(columns: readonly string[]): Map<number, string> {
  return new Map(ROWS_PER_STATEMENT.map((n) => [n, upsertSql(columns, n)]));
}

const START_SQL = upsertTexts(START_NAMES);
const END_SQL = upsertTexts(END_NAMES);
const CALL_SQL = upsertTexts([...START_NAMES, ...END_NAMES]);
const SET_NAME = 'UPDATE calls SET display_name = ? WHERE project_id = ? AND id = ?';
const TRACE_OF = 'SELECT trace_id FROM calls WHERE project_id = ? AND id = ? AND trace_id IS NOT NULL';
const ANY_REF = 'SELECT 1 FROM call_refs WHERE project_id = ? LIMIT 1';
const DELETE_REFS = 'DELETE FROM call_refs WHERE project_id = ? AND call_id = ? AND kind = ?';
const INSERT_REF = 'INSERT OR IGNORE INTO call_refs (project_id, call_id, kind, ref) VALUES (?, ?, ?, ?)';

/** The parameters of `rows` staged calls from `at`: each call's key, then its start and/or end values. */
function rowValues(calls: readonly StagedCall[], at: number, rows: number): Value[] {
  const out: Value[] = [];
  for (let i = at; i < at + rows; i++) {
    const call = calls[i] as StagedCall;
    out.push(call.projectId, call.id);
    if (call.start) for (const v of call.start) out.push(v);
    if (call.end) for (const v of call.end) out.push(v);
  }
  return out;
}

/** Writes the staged calls of one batch on SQLite: one upsert each (several rows per statement), then names and refs. */
class BatchFlush {
  constructor(private readonly prepare: Prepare, private readonly calls: readonly StagedCall[]) {}

  /** Writes every staged call: one upsert each, then its refs. */
  run(): void {
    const withRefs = new Map<string, boolean>();
    const refsStored = (projectId: string): boolean => {
      let any = withRefs.get(projectId);
      if (any === undefined) withRefs.set(projectId, (any = this.prepare(ANY_REF).get(projectId) !== undefined));
      return any;
    };
    const full: StagedCall[] = [];
    const startOnly: StagedCall[] = [];
    const endOnly: StagedCall[] = [];
    for (const call of this.calls) (call.start ? (call.end ? full : startOnly) : endOnly).push(call);
    this.upsertRows(CALL_SQL, full);
    this.upsertRows(START_SQL, startOnly);
    this.upsertRows(END_SQL, endOnly);
    for (const call of this.calls) {
      const key = [call.projectId, call.id];
      if (call.endName !== undefined) this.prepare(SET_NAME).run(call.endName, ...key);
      const stored = refsStored(call.projectId);
      if (call.inputs) this.replaceRefs(call, 'input', call.inputs, stored);
      if (call.output) this.replaceRefs(call, 'output', call.output, stored);
    }
    applyPendingRenames(this.prepare, this.calls.filter((call) => call.start));
    sqliteSteps(this.prepare, rollUpTouched(SQLITE_DIALECT, this.calls));
  }

  /** Upserts staged calls of one kind (`sql`: its texts by rows per statement), several rows per statement. */
  private upsertRows(sql: Map<number, string>, calls: readonly StagedCall[]): void {
    let at = 0;
    for (const rows of ROWS_PER_STATEMENT) {
      if (calls.length - at < rows) continue;
      const statement = this.prepare(sql.get(rows) as string);
      for (; calls.length - at >= rows; at += rows) statement.run(rowValues(calls, at, rows));
    }
  }

  /** Replaces a call's refs of one kind; skips the delete when the project has no refs at all, and the scan when the JSON holds no `svc:///`. */
  private replaceRefs(call: StagedCall, kind: 'input' | 'output', value: { value: unknown; json: string | null }, stored: boolean): void {
    if (stored) this.prepare(DELETE_REFS).run(call.projectId, call.id, kind);
    if (!value.json?.includes('svc:///')) return;
    const insert = this.prepare(INSERT_REF);
    for (const ref of extractRefs(value.value)) insert.run(call.projectId, call.id, kind, ref);
  }
}

/**
 * Stores a batch of starts and ends with the effect of applying them one by one, in order: a start
 * replaces the start fields of its call, an end the end fields (an end may come first; its row waits,
 * invisible to queries, until the start lands). Each call is written once however many items it has,
 * with `started_at` / `ended_at` normalized to UTC. Run it inside a transaction.
 *
 * `display_name` does not depend on batching or on the order starts and ends arrive in
 * (docs/interface-notes.md, "Call starts and ends"):
 * - an end's `display_name`, when given, replaces the call's name, whether its start is stored or not yet;
 * - a start's `display_name` only fills a call without a name: a start never clears a name, nor replaces
 *   an end's (an end carrying a name that arrives before its start keeps it) or an earlier start's;
 * - a `/call/update` rename replaces the name (`renameCall` in call-edit-writes.ts); one for a call whose start is not stored
 *   waits in `call_renames` and is applied after the start lands ({@link applyPendingRenames}).
 *
 * @param prepare - statement source of a read-write connection.
 * @param items - validated batch items.
 * @returns one result per item, in order: `{id, trace_id}` for a start (generated as UUIDv7 when absent;
 *   a start without `trace_id` keeps its call's, else takes its parent's), `{}` (the wire `CallEndRes`) for an end.
 */
export function writeItems(prepare: Prepare, items: readonly UpsertItem[]): (CallStartRes | CallEndRes)[] {
  const storedTrace = (projectId: string, id: string): string | undefined => (prepare(TRACE_OF).get(projectId, id) as { trace_id: string } | undefined)?.trace_id;
  const { calls, answers } = stageItems(items, storedTrace, JSON.stringify);
  new BatchFlush(prepare, calls).run();
  return answers;
}
