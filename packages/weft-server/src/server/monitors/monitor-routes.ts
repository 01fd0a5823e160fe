/**
 * `POST /weft/monitors/{create,list,delete,progress}` (a weft extension, outside the spec's endpoints): a project's
 * monitors, validated with zod (422 `{detail:[{loc, msg, type}]}`), stored by the monitor store of either engine.
 * @module
 */
import { Hono } from 'hono';
import { MONITOR_PATHS, MonitorCreateReq, MonitorDeleteReq, MonitorListReq, MonitorProgressReq } from 'weft-trace/wire';
import { HttpError } from '../http/http-error.js';
import { postJson } from '../http/request-body.js';
import type { MonitorStore } from './monitor-store.js';

/**
 * Builds the routes: `create` answers the stored monitor; `list` `{monitors}` (one project, or all when `project_id`
 * is absent); `delete` `{deleted}`; `progress` `{saved}` (a worker's cursor; 404 for a monitor that does not exist).
 * @param monitors - the monitor store.
 * @param now - the server clock (`created_at`).
 */
export function monitorRoutes(monitors: MonitorStore, now: () => Date): Hono {
  const app = new Hono();
  postJson(app, MONITOR_PATHS.create, MonitorCreateReq, (body) => monitors.create(body, now()));
  postJson(app, MONITOR_PATHS.list, MonitorListReq, async (body) => ({ monitors: await monitors.list(body.project_id ?? undefined) }));
  postJson(app, MONITOR_PATHS.delete, MonitorDeleteReq, async (body) => ({ deleted: await monitors.remove(body.project_id, body.id) }));
  postJson(app, MONITOR_PATHS.progress, MonitorProgressReq, async (body) => {
    const saved = await monitors.saveProgress(body.project_id, body.id, body.cursor_ended_at, body.cursor_call_id);
    if (!saved) throw new HttpError(404, `no monitor ${body.id} in project ${body.project_id}`);
    return { saved };
  });
  return app;
}
