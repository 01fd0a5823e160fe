/**
 * The body of `POST /table/create`, checked without walking its rows: the rows of a parsed JSON body are JSON
 * values already, so only their count (against `LIMITS.maxTableRows`) and the other fields are checked.
 * @module
 */
import { LIMITS } from 'weft-trace/wire';
import { TableCreateReq, WeaveTableCreateReq } from 'weft-trace/wire';
import { HttpError } from '../http/http-error.js';
import { validateBody } from '../http/request-body.js';

/** A checked `/table/create` body, in either shape. */
export interface TableCreateBody {
  project_id: string;
  rows: unknown[];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Checks a parsed `/table/create` body: `{project_id, rows}`, or the Weave SDK's `{table: {project_id, rows}}`.
 * The fields other than `rows` go through the zod schema (with `rows` emptied); the rows themselves are not walked
 * again (zod's `z.json()` per row cost more than the rest of the request): a body parsed by `JSON.parse` holds
 * only JSON values, and its nesting depth was checked when it was parsed (`readJson`).
 *
 * @param data - the body as `readJson` parsed it.
 * @returns the project and the rows, in order.
 * @throws HttpError 413 when `rows` holds more than `LIMITS.maxTableRows` rows (before anything else is checked).
 * @throws HttpError 422 `{detail: [{loc, msg, type}]}` for any other problem, as the zod schema reports it.
 */
export function tableCreateBody(data: unknown): TableCreateBody {
  const weave = isObject(data) && 'table' in data;
  const inner = weave ? data['table'] : data;
  const rows = isObject(inner) ? inner['rows'] : undefined;
  if (!isObject(inner) || !Array.isArray(rows)) return weave ? validateBody(WeaveTableCreateReq, data).table : validateBody(TableCreateReq, data);
  if (rows.length > LIMITS.maxTableRows) throw tooManyRows(rows.length);
  const head = weave ? validateBody(WeaveTableCreateReq, { ...data, table: { ...inner, rows: [] } }).table : validateBody(TableCreateReq, { ...inner, rows: [] });
  return { project_id: head.project_id, rows };
}

/** The 413 of a table past `LIMITS.maxTableRows`. */
function tooManyRows(count: number): HttpError {
  const max = LIMITS.maxTableRows.toLocaleString('en-US');
  return new HttpError(413, `a table holds at most ${max} rows (LIMITS.maxTableRows); this one has ${count.toLocaleString('en-US')}: split it into tables of at most ${max} rows`);
}
