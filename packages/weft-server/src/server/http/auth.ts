/**
 * Auth middleware of the local server: API keys (Basic on core endpoints, Bearer on `/v1/preview/*`) with
 * per-key project grants, or, with no keys configured, the keyless guard (loopback clients, `Host` and `Origin`).
 * @module
 */
import { PREVIEW_PREFIX } from 'weft-trace/wire';
import type { Context, MiddlewareHandler } from 'hono';
import { type ApiKey, findApiKey } from './api-keys.js';
import { JSON_MEDIA_TYPE, mediaType } from './content-type.js';
import { HttpError } from './http-error.js';
import { keylessGuard } from './keyless-guard.js';

const REALM = 'realm="weft"';

/** Context key where the auth middleware leaves the projects the request's API key is granted (`undefined`: all). */
export const GRANTED_PROJECTS = 'weftGrantedProjects';

/** One line saying how the server admits clients, for its start log (never the keys themselves). */
export function describeAccess(keys: readonly ApiKey[]): string {
  if (keys.length === 0) return 'no API keys set: loopback clients only';
  return `API key required (${keys.length} key${keys.length === 1 ? '' : 's'}: Basic api:<key>, Bearer on /v1/preview/*)`;
}

function unauthorized(scheme: 'Basic' | 'Bearer', detail: string, badToken = false): HttpError {
  const challenge = scheme === 'Basic' ? `Basic ${REALM}, charset="UTF-8"` : `Bearer ${REALM}${badToken ? ', error="invalid_token"' : ''}`;
  return new HttpError(401, detail, { 'WWW-Authenticate': challenge });
}

/**
 * The key in an Authorization header: `Basic base64(api:<key>)` on core endpoints, `Bearer <key>` on preview ones.
 * @throws HttpError 401 (with `WWW-Authenticate`) when it is missing, of the other scheme, or malformed.
 */
function presentedKey(header: string | undefined, scheme: 'Basic' | 'Bearer'): string {
  const expected = scheme === 'Basic' ? 'Authorization: Basic base64("api:<key>")' : 'Authorization: Bearer <key>';
  const where = scheme === 'Basic' ? 'this endpoint' : '/v1/preview/* endpoints';
  if (!header) throw unauthorized(scheme, `missing credentials: ${where} require ${expected}`);
  const [given = '', value = ''] = header.trim().split(/\s+/, 2);
  if (given.toLowerCase() !== scheme.toLowerCase() || value === '') {
    throw unauthorized(scheme, `wrong authorization scheme: ${where} require ${expected}`);
  }
  if (scheme === 'Bearer') return value;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0 || decoded.slice(0, colon) !== 'api') throw unauthorized(scheme, `malformed Basic credentials: expected ${expected}`);
  return decoded.slice(colon + 1);
}

const field = (o: unknown, key: string): unknown => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[key] : undefined);

/**
 * Every `project_id` a request body names, at the places the core endpoints carry it: top level
 * (stream_query, stats, tables, and the Weave SDK compatibility endpoints), `start` (call/start), `obj`
 * (obj/create), `table` (table/create in weave's shape), and each `batch` item itself (feedback) or its
 * `req.start` / `req.end` (upsert_batch).
 */
export function projectsOf(body: unknown): string[] {
  const found = new Set<string>();
  const add = (o: unknown): void => {
    const p = field(o, 'project_id');
    if (typeof p === 'string') found.add(p);
  };
  add(body);
  add(field(body, 'start'));
  add(field(body, 'obj'));
  add(field(body, 'table'));
  const batch = field(body, 'batch');
  if (Array.isArray(batch)) {
    for (const item of batch) {
      add(item);
      add(field(field(item, 'req'), 'start'));
      add(field(field(item, 'req'), 'end'));
    }
  }
  return [...found];
}

/**
 * The JSON body, or undefined when it is not JSON (the route then answers 422); a multipart form's text fields
 * (file/create carries `project_id` there). Hono caches the body for the route.
 */
async function jsonBody(c: Context): Promise<unknown> {
  try {
    if (mediaType(c.req.header('content-type')) === 'multipart/form-data') return await c.req.parseBody();
    return JSON.parse(await c.req.text()) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Builds the auth middleware. Put it after the body limit: it may read the body (Hono caches it, so routes
 * read it again unchanged).
 *
 * With keys: core endpoints need `Authorization: Basic base64("api:<key>")`, `/v1/preview/*` need
 * `Authorization: Bearer <key>`; missing, malformed, wrong-scheme or unknown credentials get 401 `{detail}` with
 * a `WWW-Authenticate` challenge. A key granted a list of projects gets 403 `{detail}` for a body naming any
 * other project (valid credentials, not permitted; spec "Authentication" leaves the status open). Preview
 * endpoints carry no project, so any valid key may use them.
 *
 * Without keys: {@link keylessGuard}: 403 `{detail}` unless the client's address and the `Host` are loopback and
 * any `Origin` is the server's own (no credentials could help).
 *
 * @param keys - parsed with `parseApiKeys`; empty means loopback-only.
 * @see service interface spec (spec/service-interface.md), "Authentication"
 */
export function authMiddleware(keys: readonly ApiKey[]): MiddlewareHandler {
  if (keys.length === 0) return keylessGuard();
  return async function apiKeyAuth(c, next) {
    const scheme = c.req.path.startsWith(PREVIEW_PREFIX) ? 'Bearer' : 'Basic';
    const key = findApiKey(keys, presentedKey(c.req.header('authorization'), scheme));
    if (!key) throw unauthorized(scheme, 'invalid API key', true);
    // Routes whose body is neither JSON nor a form (OTLP protobuf) check the grants themselves, from this context key.
    c.set(GRANTED_PROJECTS as never, key.projects as never);
    const type = mediaType(c.req.header('content-type'));
    if (key.projects && scheme === 'Basic' && (type === JSON_MEDIA_TYPE || type === 'multipart/form-data')) {
      const denied = projectsOf(await jsonBody(c)).find((p) => !key.projects!.includes(p));
      if (denied !== undefined) throw new HttpError(403, `this API key is not granted project ${JSON.stringify(denied)}`);
    }
    await next();
  };
}
