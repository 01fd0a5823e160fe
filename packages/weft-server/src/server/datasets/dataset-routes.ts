/**
 * `POST /weft/datasets/add_calls` (a weft extension, outside the spec's endpoints): traced calls added to a dataset,
 * each request one new version of it (add-calls.ts).
 * @module
 */
import { Hono } from 'hono';
import { DATASET_PATHS, DatasetAddCallsReq } from 'weft-trace/wire';
import { postJson } from '../http/request-body.js';
import { addCalls, type DatasetStores } from './add-calls.js';

/**
 * Builds the route. Body `DatasetAddCallsReq` (`{project_id, dataset, calls: [{id, expected?}], description?}`);
 * answer `DatasetAddCallsRes` (`{ref, digest, version_index, rows, added, replaced, created}`). 422 `{detail}` for a
 * bad body, a call not stored, not ended or raised without `expected`, or a name that is another object's; 409 when
 * the dataset kept changing under concurrent writers.
 * @param stores - the call, object and table stores.
 * @param now - the server clock (the version's `created_at`).
 */
export function datasetRoutes(stores: DatasetStores, now: () => Date): Hono {
  const app = new Hono();
  postJson(app, DATASET_PATHS.addCalls, DatasetAddCallsReq, (body) => addCalls(stores, body, now()));
  return app;
}
