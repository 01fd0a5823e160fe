/**
 * What the training routes need of a training store, implemented on SQLite and on PostgreSQL.
 * @module
 */
import type { AsyncApi } from '../db/store-api.js';
import type { TrainingStore } from './training-store.js';

/** Trajectories and training jobs of one database: `logTrajectories` and `createJob`; each may answer a Promise. */
export type TrainingStoreApi = AsyncApi<TrainingStore, 'logTrajectories' | 'createJob'>;
