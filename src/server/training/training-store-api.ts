/**
 * What the training routes need of a training store, implemented on SQLite and on PostgreSQL.
 * @module
 */
import type { AsyncApi } from '../db/store-api.js';
import type { TrainingReads } from './training-reads.js';
import type { TrainingStore } from './training-store.js';

/** The extension reads (`reads`): a job, a model's jobs, its stored groups, the models; each may answer a Promise. */
export type TrainingReadsApi = AsyncApi<TrainingReads, 'job' | 'jobs' | 'groups' | 'models'>;

/** Trajectories and training jobs of one database: `logTrajectories`, `createJob` and `reads`; each may answer a Promise. */
export type TrainingStoreApi = AsyncApi<TrainingStore, 'logTrajectories' | 'createJob'> & { readonly reads: TrainingReadsApi };
