/**
 * Datasets made from traced calls: `POST /weft/datasets/add_calls` (a weft extension of the local server).
 * @module
 */
import { APIResource } from '../core/resource.js';
import { checkRequest } from '../../check-request.js';
import type { RequestOptions } from '../core/transport.js';
import { DATASET_PATHS, DatasetAddCallsReq, DatasetAddCallsRes } from '../../schema/datasets.js';

/** Datasets built from calls (read them with `Dataset.load`, publish rows of your own with `Dataset.publish`). */
export class DatasetsResource extends APIResource {
  /**
   * Adds calls to a dataset as rows `{input, expected, source_call}` (the call's inputs; its output, or the
   * `expected` given as a correction; `svc:///<project>/call/<id>`), making a new version of the dataset object (created
   * by its first addition). A call already in the dataset has its row replaced. Adding the same again makes no new
   * version (`created: false`), so a retried request is harmless. An extension of weft's local server: the hosted
   * service may answer 404.
   * @example
   * const { ref } = await client.datasets.addCalls({ project_id: 'acme/demo', dataset: 'golden', calls: [{ id: callId, expected: 'Paris' }] });
   * @returns the version now latest (`ref`, `digest`, `version_index`, `rows`) and what changed (`added`, `replaced`, `created`).
   * @throws {RequestValidationError} (as a rejection) when `body` is invalid, before sending.
   * @throws {ValidationError} when a call is unknown, has not ended, or raised without a correction, or the name is another object's.
   * @throws {APIError} (or another subclass) when the server answers another error.
   */
  async addCalls(body: DatasetAddCallsReq, opts?: RequestOptions): Promise<DatasetAddCallsRes> {
    return this.transport.post(DATASET_PATHS.addCalls, checkRequest(DatasetAddCallsReq, body, 'dataset add-calls request'), DatasetAddCallsRes, opts);
  }
}
