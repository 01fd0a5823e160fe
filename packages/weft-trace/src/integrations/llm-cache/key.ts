/**
 * The cassette key of a model request: a hash of its method, path and JSON body with keys sorted (no host, headers, auth or secret query parameters).
 * @module
 */
import { nodeBuiltin } from '../../internal/runtime.js';

/** A request as the cassette keys and stores it. */
export interface NormalizedRequest {
  /** HTTP method, upper case. */
  method: string;
  /** The URL's path and its query without secret parameters (e.g. `/v1/chat/completions`); never the host. */
  path: string;
  /** The body: parsed JSON (keys sorted), else its text; `undefined` without one. */
  body: unknown;
}

/** Query parameters that carry credentials (Google's `key`), left out of the path. */
const SECRET_PARAM = /key|token|secret|signature|auth|password/i;

/** The path and query of `url` without the host and without secret parameters, parameters sorted. */
export function normalizedPath(url: string): string {
  const u = new URL(url, 'http://localhost');
  const params = [...u.searchParams].filter(([k]) => !SECRET_PARAM.test(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return params.length === 0 ? u.pathname : `${u.pathname}?${new URLSearchParams(params).toString()}`;
}

/** `value` with the keys of every object sorted (arrays keep their order): equal requests become equal JSON. */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortedKeys((value as Record<string, unknown>)[k]);
  return out;
}

/** The request `method url body` as keyed: JSON bodies parsed and their keys sorted, other bodies as text. */
export function normalizeRequest(method: string, url: string, bodyText: string | undefined): NormalizedRequest {
  let body: unknown = bodyText === '' ? undefined : bodyText;
  if (bodyText) {
    try {
      body = sortedKeys(JSON.parse(bodyText));
    } catch {
      // not JSON: keyed by its text
    }
  }
  return { method: method.toUpperCase(), path: normalizedPath(url), body };
}

/** The key of `req`: the first 16 hex digits of the SHA-256 of its canonical JSON; `undefined` without `node:crypto`. */
export function requestKey(req: NormalizedRequest): string | undefined {
  const crypto = nodeBuiltin('node:crypto');
  if (crypto === undefined) return undefined;
  return crypto.createHash('sha256').update(JSON.stringify([req.method, req.path, req.body])).digest('hex').slice(0, 16);
}
