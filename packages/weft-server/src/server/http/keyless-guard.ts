/**
 * The guard of a server without API keys: loopback clients only, addressed by a loopback `Host`, from no foreign
 * `Origin`, so neither another machine nor a web page the user visits (cross-site, or by DNS rebinding) gets in.
 * @module
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { HttpError } from './http-error.js';
import { isLoopbackAddress, isLoopbackHost } from './loopback.js';

const ADMIT_OTHERS = 'start it with --api-key (or WEFT_SERVER_API_KEYS) to admit others';

/** The client's address, or undefined without a socket (an in-process `app.request()`). */
function remoteAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** The request's `Host`: the header, or the URL's host when there is none (an in-process `app.request()`). */
function requestHost(c: Context): string {
  return c.req.header('host') ?? new URL(c.req.url).host;
}

/** Whether `origin` (an `Origin` header) is the server's own origin, `http://<host>`. `null` and malformed origins are not. */
function isOwnOrigin(origin: string, host: string): boolean {
  try {
    return new URL(origin).origin === new URL(`http://${host}`).origin;
  } catch {
    return false;
  }
}

/**
 * Builds the middleware of keyless mode. Each failing check answers 403 `{detail}`, in this order:
 * - the client's address is not loopback;
 * - the `Host` header is not a loopback name or address (`localhost`, `*.localhost`, `127.x.y.z`, `[::1]`, with
 *   any port): a page on `evil.example` whose DNS answer was rebound to 127.0.0.1 still sends `Host: evil.example`;
 * - an `Origin` header is present and is not the server's own (`http://` + the `Host`): browsers send it on
 *   cross-origin requests, while the SDK, the typed client and the CLI send none.
 *
 * @see docs/server.md, "Auth"
 */
export function keylessGuard(): MiddlewareHandler {
  return async function keylessOnlyLoopback(c, next) {
    const address = remoteAddress(c);
    if (address !== undefined && !isLoopbackAddress(address)) {
      throw new HttpError(403, `this server has no API keys and accepts loopback clients only; ${ADMIT_OTHERS}`);
    }
    const host = requestHost(c);
    if (!isLoopbackHost(host)) {
      throw new HttpError(403, `this server has no API keys and answers only requests addressed to a loopback host (localhost, 127.0.0.1, [::1]), not Host ${JSON.stringify(host)}; ${ADMIT_OTHERS}`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && !isOwnOrigin(origin, host)) {
      throw new HttpError(403, `this server has no API keys and refuses requests from another origin (Origin ${JSON.stringify(origin)}); ${ADMIT_OTHERS}`);
    }
    await next();
  };
}
