/**
 * Calls added to a dataset (issue 50 point 4): each call read and made a row `{input, expected, source_call}`, merged
 * into the dataset's latest rows (a call already there has its row replaced), and stored as a new version the way
 * `Dataset.publish` stores one (a table of rows, then the `Dataset` object), compare-and-set against the version read.
 * @module
 */
import { callRef, type CallDatasetRow, datasetObjectVal, type DatasetAddCallsReq, type DatasetAddCallsRes, objectRef, parseTableRef, tableRef } from 'weft-trace/wire';
import type { z } from 'zod';
import type { CallStore } from '../calls/call-store.js';
import { HttpError } from '../http/http-error.js';
import type { ObjInput, ObjectStore } from '../objects/object-store.js';
import type { TableStore } from '../tables/table-store.js';

/** The stores an addition reads and writes. */
export interface DatasetStores {
  calls: CallStore;
  objects: ObjectStore;
  tables: TableStore;
}

/** A validated body of the route. */
export type AddCallsBody = z.output<typeof DatasetAddCallsReq>;

/** Reads and writes tried before answering 409: each retry follows another writer's new version of the same dataset. */
const ATTEMPTS = 8;

/** A 422 naming the `i`-th call. */
function callError(i: number, msg: string): HttpError {
  return HttpError.validation([{ loc: ['body', 'calls', String(i), 'id'], msg, type: 'value_error' }]);
}

/**
 * The rows of the calls, in order.
 * @throws HttpError 422 for a call that is not stored, has not ended or raised, unless its `expected` is given.
 */
async function rowsOf(calls: CallStore, body: AddCallsBody): Promise<CallDatasetRow[]> {
  const rows: CallDatasetRow[] = [];
  for (const [i, item] of body.calls.entries()) {
    const call = await calls.getCall(body.project_id, item.id);
    if (!call) throw callError(i, `no call ${JSON.stringify(item.id)} in project ${JSON.stringify(body.project_id)}`);
    const corrected = item.expected !== undefined;
    if (!corrected && call.ended_at === null) throw callError(i, 'the call has not ended, so it has no output yet: give "expected" to add it with a correction');
    if (!corrected && call.exception != null) throw callError(i, 'the call raised an exception, so it has no output: give "expected" to add it with a correction');
    rows.push({ input: call.inputs ?? {}, expected: corrected ? item.expected : (call.output ?? null), source_call: callRef(body.project_id, call.id) });
  }
  return rows;
}

/** The dataset's latest version: its digest, description and rows; `undefined` when it has none yet. @throws HttpError 422 when the name is an object that is not a dataset. */
async function latestVersion(stores: DatasetStores, project: string, name: string): Promise<{ digest: string; description: string | null; rows: unknown[] } | undefined> {
  const [obj] = await stores.objects.query({ project_id: project, filter: { object_ids: [name], latest_only: true } });
  if (!obj) return undefined;
  const val = (obj.val ?? {}) as Record<string, unknown>;
  const table = parseTableRef(val['rows']);
  if (!table) throw HttpError.validation([{ loc: ['body', 'dataset'], msg: `object ${JSON.stringify(name)} is not a dataset (its "rows" is not a table ref)`, type: 'value_error' }]);
  const rows = await stores.tables.query({ project_id: project, digest: table.digest });
  return { digest: obj.digest, description: typeof val['description'] === 'string' ? val['description'] : null, rows: rows.map((r) => r.val) };
}

/** `rows` with `fresh` merged in: a row whose `source_call` is already there replaces it in place, any other is appended. */
function merge(rows: readonly unknown[], fresh: readonly CallDatasetRow[]): { rows: unknown[]; added: number; replaced: number } {
  const out = [...rows];
  const at = new Map<string, number>();
  out.forEach((r, i) => {
    const source = (r as Partial<CallDatasetRow> | null)?.source_call;
    if (typeof source === 'string') at.set(source, i);
  });
  let added = 0;
  let replaced = 0;
  for (const row of fresh) {
    const i = at.get(row.source_call);
    if (i === undefined) {
      at.set(row.source_call, out.push(row) - 1);
      added++;
    } else {
      out[i] = row;
      replaced++;
    }
  }
  return { rows: out, added, replaced };
}

/**
 * Adds the body's calls to its dataset: one new version (none when the rows come out unchanged).
 * @throws HttpError 422 for a call that cannot be added (see {@link rowsOf}) or a name that is another object's; 409
 *   when other writers kept making versions of the same dataset through every attempt.
 */
export async function addCalls(stores: DatasetStores, body: AddCallsBody, now: Date): Promise<DatasetAddCallsRes> {
  const { project_id: project, dataset: name } = body;
  const fresh = await rowsOf(stores.calls, body);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const latest = await latestVersion(stores, project, name);
    const merged = merge(latest?.rows ?? [], fresh);
    const table = await stores.tables.create(project, merged.rows);
    const val = datasetObjectVal(name, body.description ?? latest?.description ?? null, tableRef(project, table.digest)) as ObjInput['val'];
    const made = await stores.objects.createIfLatest({ project_id: project, object_id: name, val }, now, latest?.digest ?? null);
    if (!made) continue;
    return {
      ref: objectRef(project, name, made.digest), digest: made.digest, version_index: made.version_index, rows: merged.rows.length,
      added: merged.added, replaced: merged.replaced, created: made.digest !== latest?.digest,
    };
  }
  throw new HttpError(409, `dataset ${JSON.stringify(name)} kept changing while these calls were added (${ATTEMPTS} attempts); try again`);
}
