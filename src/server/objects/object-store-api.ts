/**
 * What the object and file routes need of their stores, implemented on SQLite and on PostgreSQL.
 * @module
 */
import type { AsyncApi } from '../db/store-api.js';
import type { FileStore } from './file-store.js';
import type { ObjectStore } from './object-store.js';

/** Object versions of one database: `create`, `read`, `query`, `readVals` (many values by ref, object-vals.ts); each may answer a Promise. */
export type ObjectStoreApi = AsyncApi<ObjectStore, 'create' | 'read' | 'query' | 'readVals'>;
/** Files of one database: `create` and `content`; each may answer a Promise. */
export type FileStoreApi = AsyncApi<FileStore, 'create' | 'content'>;
