/**
 * Paths of the Weave SDK compatibility endpoints: what the Weave SDKs call besides the interface spec's endpoints.
 * @module
 */

/** The paths, as the Weave trace server names them (not in the interface spec). */
export const WEAVE_ENDPOINTS = {
  /** Liveness: `GET /health` → `{status: "ok"}` (`weave.login()` checks it). */
  health: '/health',
  /** `GET /server_info` → `{min_required_weave_python_version, ...}`. */
  serverInfo: '/server_info',
  /** Create an object version (ops are objects too). */
  objCreate: '/obj/create',
  /** Read one object version (`digest`, `latest` or `v<N>`). */
  objRead: '/obj/read',
  /** List object versions. */
  objsQuery: '/objs/query',
  /** Upload a file (multipart form: `project_id`, `file`). */
  fileCreate: '/file/create',
  /** Download a file's bytes. */
  fileContent: '/file/content',
  /** Create one feedback item (weave's `addScore`). */
  feedbackCreate: '/feedback/create',
  /** Delete feedback by id (`{project_id, query}`, the query naming ids only). */
  feedbackPurge: '/feedback/purge',
  /** Query feedback. */
  feedbackQuery: '/feedback/query',
  /** Change a call's `display_name` after it started. */
  callUpdate: '/call/update',
  /** Delete calls and their descendants. */
  callsDelete: '/calls/delete',
} as const;

/** Media types of the non-JSON request bodies, by path (for the server's `Content-Type` check). */
export const WEAVE_BODY_TYPES: ReadonlyMap<string, readonly string[]> = new Map([[WEAVE_ENDPOINTS.fileCreate, ['multipart/form-data']]]);
