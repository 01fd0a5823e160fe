/**
 * Placeholder routes for the spec endpoints this server version does not serve yet: 501 with a clear detail.
 * @module
 */
import { Hono } from 'hono';

/** Paths of spec endpoints still to be implemented. */
export const NOT_IMPLEMENTED_PATHS = [
  '/feedback/batch/create',
  '/feedback/stats',
] as const;

/** Builds routes answering POST on each of {@link NOT_IMPLEMENTED_PATHS} with 501 `{detail}`. */
export function notImplementedRoutes(): Hono {
  const app = new Hono();
  for (const path of NOT_IMPLEMENTED_PATHS) {
    app.post(path, (c) => c.json({ detail: 'not implemented in this server version' }, 501));
  }
  return app;
}
