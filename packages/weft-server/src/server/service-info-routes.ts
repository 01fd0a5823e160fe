/**
 * `GET /health` and `GET /server_info` as the Weave SDKs call them (Weave SDK compatibility, not in the interface spec).
 * @module
 */
import { Hono } from 'hono';
import { WEAVE_ENDPOINTS } from 'weft-trace/wire';

/**
 * The oldest Weave Python SDK this server's answers suit, as `/server_info` reports it (the Weave server's
 * field; the TypeScript SDK does not read it).
 */
export const MIN_WEAVE_PYTHON_VERSION = '0.0.0';

/**
 * Builds the service routes: `GET /health` → `{status: "ok"}` (what `weave.login()` checks) and
 * `GET /server_info` → `{min_required_weave_python_version, server: "weft"}`. Both go through auth like
 * every route: with API keys, `weave.login(key, host)` fails on a wrong key.
 */
export function serviceInfoRoutes(): Hono {
  const app = new Hono();
  app.get(WEAVE_ENDPOINTS.health, (c) => c.json({ status: 'ok' }));
  app.get(WEAVE_ENDPOINTS.serverInfo, (c) => c.json({ min_required_weave_python_version: MIN_WEAVE_PYTHON_VERSION, server: 'weft' }));
  return app;
}
