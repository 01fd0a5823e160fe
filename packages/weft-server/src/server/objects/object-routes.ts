/**
 * Routes of objects and files for the Weave SDKs (not in the interface spec): obj/create, obj/read, objs/query, file/create, file/content.
 * @module
 */
import { Hono } from 'hono';
import { FileContentReq, FileCreateForm, ObjCreateReq, ObjQueryReq, ObjReadReq } from 'weft-trace/wire';
import { WEAVE_ENDPOINTS } from 'weft-trace/wire';
import { HttpError } from '../http/http-error.js';
import { postJson, validateBody } from '../http/request-body.js';
import type { FileStore } from './file-store.js';
import type { ObjectStore } from './object-store.js';

/**
 * Builds the object and file routes.
 *
 * - `POST /obj/create` `{obj: {project_id, object_id, val, builtin_object_class?}}` → `{digest}`.
 * - `POST /obj/read` `{project_id, object_id, digest}` → `{obj}`; 404 `{detail}` when absent.
 * - `POST /objs/query` `{project_id, filter?, sort_by?, limit?, offset?, metadata_only?}` → `{objs}`.
 * - `POST /file/create` multipart form (`project_id`, `file`) → `{digest}`; 422 when a field is missing.
 * - `POST /file/content` `{project_id, digest}` → the bytes (`application/octet-stream`); 404 when absent.
 *
 * @param objects - object versions.
 * @param files - file contents.
 * @param now - the server clock (`created_at`).
 */
export function objectRoutes(objects: ObjectStore, files: FileStore, now: () => Date): Hono {
  const app = new Hono();
  postJson(app, WEAVE_ENDPOINTS.objCreate, ObjCreateReq, (body) => objects.create(body.obj, now()));
  postJson(app, WEAVE_ENDPOINTS.objRead, ObjReadReq, async (body) => ({ obj: await objects.read(body) }));
  postJson(app, WEAVE_ENDPOINTS.objsQuery, ObjQueryReq, async (body) => ({ objs: await objects.query(body) }));
  app.post(WEAVE_ENDPOINTS.fileCreate, async (c) => {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw HttpError.validation([{ loc: ['body'], msg: `malformed multipart form: ${why}`, type: 'value_error' }]);
    }
    const { project_id } = validateBody(FileCreateForm, { project_id: form['project_id'] });
    const file = form['file'];
    if (!(file instanceof Blob)) {
      throw HttpError.validation([{ loc: ['body', 'file'], msg: 'a file part named "file" is required', type: 'missing' }]);
    }
    return c.json(await files.create(project_id, new Uint8Array(await file.arrayBuffer()), now()));
  });
  postJson(app, WEAVE_ENDPOINTS.fileContent, FileContentReq, async (body, c) => {
    const bytes = await files.content(body.project_id, body.digest);
    return c.body(new Uint8Array(bytes), 200, { 'content-type': 'application/octet-stream' });
  });
  return app;
}
