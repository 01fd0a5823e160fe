/**
 * The one table of the fields of a call start and a call end (the keys of the zod shapes of
 * `StartedCallSchemaForInsert` and `EndedCallSchemaForInsert`: `satisfies` fails the build when a key is missing or
 * extra), each with its kind. The fast batch parser (upsert-batch-parse.ts) checks and copies fields by kind, and both
 * stores write the columns derived here (`START_COLUMNS`, `END_COLUMNS`, `startValues`, `endValues`): a field added to
 * the schema and to this table is parsed on the fast path and stored by SQLite and PostgreSQL alike (given its column in
 * the migrations).
 * @module
 */
import type { z } from 'zod';
import type { EndedCallSchemaForInsert, StartedCallSchemaForInsert, UpsertBatchItem } from 'weft-trace/wire';
import { normalizeTimestamp } from '../../db/timestamps.js';

/** A validated start (zod output of `StartedCallSchemaForInsert`). */
export type StartInput = z.output<typeof StartedCallSchemaForInsert>;
/** A validated end (zod output of `EndedCallSchemaForInsert`). */
export type EndInput = z.output<typeof EndedCallSchemaForInsert>;
/** A validated batch item (zod output of `UpsertBatchItem`). */
export type UpsertItem = z.output<typeof UpsertBatchItem>;

/**
 * What a field is: `project` (a project id) and `key` / `key?` (a call id, required or optional) make the row's key;
 * `name` (non-empty text), `text?` (text or null), `time` (a timestamp, stored as UTC ISO text), `object` / `object?`
 * (a JSON object, required or nullish), `json?` (any JSON, optional), `int?` (a safe integer or null), `exception`
 * and `summary` (their zod shapes) are stored in the column of their name; `end-name` is an end's `display_name`,
 * which replaces the call's name after the upsert instead of filling a column of the end; `count-mark` is an end's
 * `counted_in_parent` (a boolean), whose `false` marks the call for the rollup (rollup-writes.ts) instead.
 */
export type FieldKind = 'project' | 'key' | 'key?' | 'name' | 'text?' | 'time' | 'object' | 'object?' | 'json?' | 'int?' | 'exception' | 'summary' | 'end-name' | 'count-mark';

/** Fields of a start, in the zod shape's order. */
export const START_FIELDS = {
  project_id: 'project', op_name: 'name', started_at: 'time', attributes: 'object', inputs: 'object', display_name: 'text?', id: 'key?',
  otel_dump: 'object?', parent_id: 'text?', thread_id: 'text?', trace_id: 'text?', turn_id: 'text?', svc_run_id: 'text?', svc_run_step: 'int?',
  svc_user_id: 'text?',
} as const satisfies Record<keyof typeof StartedCallSchemaForInsert.shape, FieldKind>;

/** Fields of an end, in the zod shape's order. */
export const END_FIELDS = {
  project_id: 'project', id: 'key', ended_at: 'time', output: 'json?', exception: 'exception', summary: 'summary', display_name: 'end-name', svc_run_step_end: 'int?',
  counted_in_parent: 'count-mark',
} as const satisfies Record<keyof typeof EndedCallSchemaForInsert.shape, FieldKind>;

/** How a column's value is written: as text, as a timestamp normalized to UTC, as JSON text, as an integer. */
export type ColumnType = 'text' | 'time' | 'json' | 'int';

const COLUMN_TYPE: Record<FieldKind, ColumnType | undefined> = {
  'project': undefined, 'key': undefined, 'key?': undefined, 'end-name': undefined, 'count-mark': undefined, 'name': 'text', 'text?': 'text', 'time': 'time',
  'object': 'json', 'object?': 'json', 'json?': 'json', 'exception': 'json', 'summary': 'json', 'int?': 'int',
};

/** One column of `calls` a start or an end sets (after the key). */
export interface CallColumn {
  name: string;
  type: ColumnType;
}

function columnsOf(fields: Record<string, FieldKind>): CallColumn[] {
  return Object.entries(fields).flatMap(([name, kind]) => {
    const type = COLUMN_TYPE[kind];
    return type ? [{ name, type }] : [];
  });
}

/** The key columns of `calls`, first in every upsert. */
export const KEY_COLUMNS = ['project_id', 'id'] as const;
/** Columns a start sets (after the key), in the order {@link startValues} answers them. */
export const START_COLUMNS: readonly CallColumn[] = columnsOf(START_FIELDS);
/** Columns an end sets (after the key), in the order {@link endValues} answers them. */
export const END_COLUMNS: readonly CallColumn[] = columnsOf(END_FIELDS);
/** Where `display_name`, `trace_id` and `inputs` are in a start's values, `output` in an end's. */
export const START_NAME_AT = START_COLUMNS.findIndex((c) => c.name === 'display_name');
const TRACE_AT = START_COLUMNS.findIndex((c) => c.name === 'trace_id');
export const INPUTS_AT = START_COLUMNS.findIndex((c) => c.name === 'inputs');
export const OUTPUT_AT = END_COLUMNS.findIndex((c) => c.name === 'output');

/** A column value as bound to a statement. */
export type Value = string | number | null;
/** An engine's JSON text of a value (SQLite: `JSON.stringify`; PostgreSQL: `pgJsonText`). */
export type JsonText = (value: unknown) => string;

function valuesOf(columns: readonly CallColumn[], from: Record<string, unknown>, jsonText: JsonText): Value[] {
  const out: Value[] = new Array(columns.length);
  for (let i = 0; i < columns.length; i++) {
    const { name, type } = columns[i]!;
    const v = from[name];
    out[i] = v === undefined || v === null ? null : type === 'json' ? jsonText(v) : type === 'time' ? normalizeTimestamp(v as string) : (v as Value);
  }
  return out;
}

/** The values of {@link START_COLUMNS} for a start, its trace id being the one the batch resolved. */
export function startValues(start: StartInput, traceId: string, jsonText: JsonText): Value[] {
  const out = valuesOf(START_COLUMNS, start, jsonText);
  out[TRACE_AT] = traceId;
  return out;
}

/** The values of {@link END_COLUMNS} for an end. */
export function endValues(end: EndInput, jsonText: JsonText): Value[] {
  return valuesOf(END_COLUMNS, end, jsonText);
}
