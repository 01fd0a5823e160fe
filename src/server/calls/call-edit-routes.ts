/**
 * Routes of call edits for the Weave SDKs (not in the interface spec): `POST /call/update` and `POST /calls/delete`.
 * @module
 */
import { Hono } from 'hono';
import { CallUpdateReq, CallsDeleteReq } from '../../schema/call-edits.js';
import { WEAVE_ENDPOINTS } from '../../schema/weave-endpoints.js';
import { readJsonBody } from '../http/request-body.js';
import type { CallStore } from './call-store.js';

/**
 * Builds the call edit routes.
 *
 * - `POST /call/update` `{project_id, call_id, display_name}` → `{}`; a call whose start has not arrived yet
 *   gets the name when it does (the Weave SDK renames ended calls before their batch is sent).
 * - `POST /calls/delete` `{project_id, call_ids}` → `{}`: the calls and all their descendants are deleted;
 *   unknown ids are ignored.
 *
 * @param calls - the call store.
 */
export function callEditRoutes(calls: CallStore): Hono {
  const app = new Hono();

  app.post(WEAVE_ENDPOINTS.callUpdate, async (c) => {
    const body = await readJsonBody(c, CallUpdateReq);
    await calls.updateCall(body.project_id, body.call_id, body.display_name ?? null);
    return c.json({});
  });

  app.post(WEAVE_ENDPOINTS.callsDelete, async (c) => {
    const body = await readJsonBody(c, CallsDeleteReq);
    await calls.deleteCalls(body.project_id, body.call_ids);
    return c.json({});
  });

  return app;
}
