/**
 * The server's one exception class and the handlers that turn errors and unknown paths into JSON answers.
 * @module
 */
import type { ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { QueryError } from '../db/query-error.js';
import { isCanceledStatement, isUnstorableText } from '../db/pg-json.js';

import type { DetailItem } from 'weft-trace/wire';

export type { DetailItem };

/** An HTTP error answered as `{detail}` with its status. Throw it from any handler or middleware. */
export class HttpError extends Error {
  override name = 'HttpError';
  /**
   * @param status - HTTP status of the answer.
   * @param detail - the `detail` of the JSON body: a message, or validation items for 422.
   * @param headers - extra response headers (e.g. `Allow`).
   */
  constructor(
    readonly status: ContentfulStatusCode,
    readonly detail: string | DetailItem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
  }

  /** A 422 with the given items. */
  static validation(detail: DetailItem[]): HttpError {
    return new HttpError(422, detail);
  }
}

/** Answers unknown paths: 404 `{detail: "Not Found"}`. */
export const notFound: NotFoundHandler = (c) => c.json({ detail: 'Not Found' }, 404);

/**
 * Builds the error handler: {@link HttpError} → its status and `{detail}`; a query naming an unknown
 * field → 422; text PostgreSQL cannot store (U+0000) → 422; a PostgreSQL statement cut by its timeout → 503; anything else → a log line (with stack) and 500 `{detail}`, never a crash.
 *
 * @param log - receives one line per unexpected error.
 */
export function errorHandler(log: (line: string) => void): ErrorHandler {
  return function handleError(err, c) {
    if (err instanceof HttpError) return c.json({ detail: err.detail }, err.status, err.headers);
    if (err instanceof QueryError) {
      return c.json({ detail: [{ loc: ['body', ...err.loc], msg: err.message, type: err.type }] }, 422);
    }
    if (err instanceof HTTPException) return err.getResponse();
    if (isUnstorableText(err)) {
      return c.json({ detail: [{ loc: ['body'], msg: 'the PostgreSQL store cannot hold the character U+0000 in text', type: 'value_error' }] }, 422);
    }
    if (isCanceledStatement(err)) {
      return c.json({ detail: 'the PostgreSQL statement of this request ran longer than the statement timeout (WEFT_PG_STATEMENT_TIMEOUT_MS) and was cancelled' }, 503);
    }
    log(`weft server: ${c.req.method} ${c.req.path} failed: ${err.stack ?? String(err)}`);
    return c.json({ detail: `Internal Server Error: ${err.message}` }, 500);
  };
}
