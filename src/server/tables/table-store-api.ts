/**
 * What the table routes need of a table store, implemented on SQLite and on PostgreSQL.
 * @module
 */
import type { AsyncApi } from '../db/store-api.js';
import type { TableStore } from './table-store.js';

/** Tables of one database: `create` and `query`; each may answer a Promise. */
export type TableStoreApi = AsyncApi<TableStore, 'create' | 'query'>;
