/**
 * Entry of the local reference server: `startServer()` plus the app, store and types it is built from.
 * @module
 */
// The public surface (see docs/server.md): the server, the two stores behind one base class (ServerStore), their inputs
// and answers, and the errors a caller may catch. No store internals (resource stores, connections, migrations, SQL).
export { createApp, DEFAULT_MAX_BODY_BYTES, type AppOptions } from './app.js';
export { openStore, Store, type StoreOptions } from './store.js';
export { openPgStore, PgStore } from './pg-store.js';
export type { ServerStore } from './server-store.js';
export type { CallCursorApi as CallCursor } from './calls/query/call-cursor.js';
export type { StartInput, EndInput, UpsertItem } from './calls/write/call-fields.js';
export type { CallsQuery } from './calls/query/query-sql.js';
export type { WireRecord } from './calls/query/columns.js';
export type { CallStatus, StoredCallRecord } from './calls/query/records.js';
export { DEFAULT_PRICES, type ModelPrice, type PriceTable } from './calls/prices/price-table.js';
export { HttpError, type DetailItem } from './http/http-error.js';
export { QueryError } from './db/query-error.js';
export { parseApiKeys, type ApiKey } from './http/api-keys.js';

export { DEFAULT_HOST, DEFAULT_PORT } from './listen-defaults.js';
export { startServer, type RunningServer, type StartServerOptions } from './start-server.js';

