/**
 * What the feedback routes and the stream-query pipeline need of a feedback store, implemented on SQLite and on PostgreSQL.
 * @module
 */
import type { AsyncApi } from '../db/store-api.js';
import type { FeedbackStore } from './feedback-store.js';

/** Feedback of one database: `createBatch`, `forCalls` (for `include_feedback`), `stats` and `purge`; each may answer a Promise. */
export type FeedbackStoreApi = AsyncApi<FeedbackStore, 'createBatch' | 'forCalls' | 'stats' | 'purge'>;
