/**
 * Object endpoints of the Weave SDK compatibility routes: `POST /obj/create`, `/obj/read`, `/objs/query` (datasets, evaluations).
 * @module
 */
import { WEAVE_ENDPOINTS } from '../../schema/weave-endpoints.js';
import { APIResource } from '../core/resource.js';
import { checkRequest } from '../../check-request.js';
import type { RequestOptions } from '../core/transport.js';
import { ObjCreateReq, ObjCreateRes, ObjQueryReq, ObjQueryRes, ObjReadReq, ObjReadRes } from '../../schema/objects.js';

/**
 * Versioned objects (Weave's `/obj/*` routes, served by `weft serve`; not part of the interface spec, so the hosted
 * service may answer 404). A version is named by its content digest: creating the same value again answers the same digest.
 */
export class ObjectsResource extends APIResource {
  /**
   * Stores `obj.val` as a version of `obj.object_id`.
   * @example
   * const { digest } = await client.objects.create({ obj: { project_id: 'acme/demo', object_id: 'config', val: { t: 0.5 } } });
   * @returns `{digest}` of the version.
   * @throws {RequestValidationError} (as a rejection) when the body is invalid (e.g. an `object_id` with `/`), before sending.
   * @throws {APIError} (or a subclass) when the server answers an error.
   */
  async create(body: ObjCreateReq, opts?: RequestOptions): Promise<ObjCreateRes> {
    return this.transport.post(WEAVE_ENDPOINTS.objCreate, checkRequest(ObjCreateReq, body, 'object create request'), ObjCreateRes, opts);
  }

  /**
   * Reads one version: `digest` is a version's digest, `latest`, or `v<N>`.
   * @returns `{obj}` with `val`, `digest`, `version_index`, `created_at`.
   * @throws {NotFoundError} when the object or version does not exist.
   * @throws {APIError} (or another subclass) when the server answers another error.
   */
  async read(body: ObjReadReq, opts?: RequestOptions): Promise<ObjReadRes> {
    return this.transport.post(WEAVE_ENDPOINTS.objRead, checkRequest(ObjReadReq, body, 'object read request'), ObjReadRes, opts);
  }

  /**
   * Lists object versions (oldest first unless `sort_by`), filtered by ids, classes (`base_object_classes:
   * ['Dataset']`), `latest_only`.
   * @returns `{objs}`.
   * @throws {APIError} (or a subclass) when the server answers an error.
   */
  async query(body: ObjQueryReq, opts?: RequestOptions): Promise<ObjQueryRes> {
    return this.transport.post(WEAVE_ENDPOINTS.objsQuery, checkRequest(ObjQueryReq, body, 'objects query'), ObjQueryRes, opts);
  }
}
