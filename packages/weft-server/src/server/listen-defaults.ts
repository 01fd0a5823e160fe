/**
 * Where `weft serve` listens by default; kept apart so the CLI reads them without loading the server
 * (and its native SQLite module).
 * @module
 */

/** Default TCP port of `weft serve` and of the SDK's default base URL. */
export const DEFAULT_PORT = 6345;
/** Default bind address: loopback only. */
export const DEFAULT_HOST = '127.0.0.1';
