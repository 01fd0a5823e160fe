/**
 * The `Content-Type` rule of request bodies: every POST sends `application/json` unless its route declares other types.
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import { HttpError } from './http-error.js';

/** The media type every operation's body uses (the interface spec: every operation is a POST with JSON). */
export const JSON_MEDIA_TYPE = 'application/json';

/**
 * The media type of a `Content-Type` value, lowercased, without parameters (`Application/JSON; charset=utf-8`
 * gives `application/json`); empty when the header is absent.
 */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * Builds the middleware answering 415 `{detail}` to a POST whose `Content-Type` is not `application/json`
 * (parameters such as `charset` allowed). This also keeps a web page from writing through a "simple" request:
 * a browser sends `text/plain`, `multipart/form-data` or `application/x-www-form-urlencoded` cross-site without
 * asking first, but never `application/json`.
 *
 * @param otherTypes - routes whose body is not JSON, path to the media types they take instead (e.g. a file
 *   upload taking `multipart/form-data`); matched on the exact path.
 */
export function requireJsonBody(otherTypes: ReadonlyMap<string, readonly string[]> = new Map()): MiddlewareHandler {
  return async function jsonBodyOnly(c, next) {
    if (c.req.method === 'POST') {
      const accepted = [JSON_MEDIA_TYPE, ...(otherTypes.get(c.req.path) ?? [])];
      const given = c.req.header('content-type');
      if (!accepted.includes(mediaType(given))) {
        const what = given === undefined ? 'no Content-Type' : `Content-Type ${JSON.stringify(given)}`;
        throw new HttpError(415, `${c.req.path} takes a body of type ${accepted.join(' or ')}, got ${what}`);
      }
    }
    await next();
  };
}
