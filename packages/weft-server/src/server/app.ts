/**
 * The HTTP app of the local server: middleware (method check, body limit, auth, body type), routes and error handling.
 * @module
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { parseApiKeys } from './http/api-keys.js';
import { authMiddleware } from './http/auth.js';
import { requireJsonBody } from './http/content-type.js';
import { errorHandler, notFound } from './http/http-error.js';
import { callRoutes } from './calls/call-routes.js';
import { feedbackRoutes } from './feedback/feedback-routes.js';
import { OTLP_MEDIA_TYPES, otlpRoutes } from './otlp/otlp-routes.js';
import { type ServerStore, storeParts } from './server-store.js';
import { tableRoutes } from './tables/table-routes.js';
import { trainingRoutes } from './training/training-routes.js';
import { objectRoutes } from './objects/object-routes.js';
import { fileServeRoutes } from './objects/file-serve.js';
import { datasetRoutes } from './datasets/dataset-routes.js';
import { WEAVE_BODY_TYPES } from 'weft-trace/wire';
import { serviceInfoRoutes } from './service-info-routes.js';
import { overviewRoute } from './calls/overview-route.js';
import { monitorRoutes } from './monitors/monitor-routes.js';
import { queueRoutes } from './queues/queue-routes.js';
import { retentionRoute } from './calls/retention-route.js';
import { projectRoutes, uiRoutes } from './ui-routes.js';
import { playgroundRoutes } from './playground/playground-routes.js';

/** Largest request body accepted by default: 32 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The database (`openStore` or `openPgStore`); each resource's routes get its store (`storeParts`). */
  store: ServerStore;
  /** Largest accepted request body, in bytes; larger ones get 413. @defaultValue 32 MiB ({@link DEFAULT_MAX_BODY_BYTES}) */
  maxBodyBytes?: number;
  /** Receives one line per unexpected error. @defaultValue writes to stderr */
  log?: (line: string) => void;
  /**
   * API keys, each string `key` (all projects) or `key=entity/project,entity/project2` (comma-separated lists
   * allowed; see `parseApiKeys`). Empty: only loopback clients addressing a loopback `Host`, with no foreign
   * `Origin`, are served. @defaultValue `[]`
   */
  apiKeys?: readonly string[];
  /** The server clock: feedback `created_at` and the default `end` of `/feedback/stats`. @defaultValue `() => new Date()` */
  now?: () => Date;
}

/**
 * Builds the Hono app. Answers: validation errors 422 `{detail:[{loc, msg, type}]}`, unknown paths 404
 * `{detail:"Not Found"}`, a known path with another method 405 (with `Allow`), oversized bodies 413,
 * unexpected errors 500 `{detail}` plus a log line. With `apiKeys`, missing or bad credentials get 401 and a
 * key outside its granted projects 403; without, a non-loopback client, `Host` or a foreign `Origin` gets 403 (see
 * `authMiddleware`). A POST whose `Content-Type` is not `application/json` gets 415 (see `requireJsonBody`).
 *
 * @param options - store, body limit and logger.
 * @returns the app; serve it with `@hono/node-server` or call `app.request()` in tests.
 * @throws TypeError when `maxBodyBytes` is not a positive integer or an `apiKeys` item is malformed.
 * @see service interface spec (spec/service-interface.md), "Endpoints"
 */
export function createApp(options: AppOptions): Hono {
  const { maxBodyBytes = DEFAULT_MAX_BODY_BYTES, log = (line: string) => console.error(line), now = () => new Date() } = options;
  const store = storeParts(options.store);
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new TypeError(`maxBodyBytes must be a positive integer, got ${String(maxBodyBytes)} (${typeof maxBodyBytes})`);
  }
  const apiKeys = parseApiKeys(options.apiKeys ?? []);
  const app = new Hono();
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) => c.json({ detail: 'Method Not Allowed' }, 405, { Allow: methods.join(', ') }),
    }),
  );
  app.use(
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) => c.json({ detail: `request body is larger than the limit of ${maxBodyBytes} bytes (maxBodyBytes)` }, 413),
    }),
  );
  app.route('/', uiRoutes(apiKeys));
  app.use(authMiddleware(apiKeys));
  app.use(requireJsonBody(new Map([...WEAVE_BODY_TYPES, ...OTLP_MEDIA_TYPES])));
  app.route('/', callRoutes(store.calls, log));
  app.route('/', tableRoutes(store.tables));
  app.route('/', trainingRoutes(store.training));
  app.route('/', feedbackRoutes(store.feedback, now));
  app.route('/', objectRoutes(store.objects, store.files, now));
  app.route('/', fileServeRoutes(store.files));
  app.route('/', datasetRoutes({ calls: store.calls, objects: store.objects, tables: store.tables }, now));
  app.route('/', serviceInfoRoutes());
  app.route('/', overviewRoute(store.calls, now));
  app.route('/', monitorRoutes(store.monitors, now));
  app.route('/', queueRoutes({ ...store, listCalls: (q) => options.store.listCalls(q) }, now));
  app.route('/', retentionRoute(store.calls, now));
  app.route('/', otlpRoutes(store.calls, maxBodyBytes));
  app.route('/', projectRoutes(store.calls));
  app.route('/', playgroundRoutes(store.objects, now));
  app.notFound(notFound);
  app.onError(errorHandler(log));
  return app;
}
