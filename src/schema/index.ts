/**
 * The wire schemas, one module per resource group; zod is the single source of truth for the wire.
 * @module
 */
export * from './common.js';
export * from './project-id.js';
export * from './query.js';
export * from './validation-error.js';
export * from './calls.js';
export * from './feedback.js';
export * from './feedback-types.js';
export * from './refs.js';
export * from './tables.js';
export * from './trajectories.js';
export * from './training-reads.js';
export * from './validate.js';
export * from './endpoints.js';
export * from './limits.js';
export * from './objects.js';
export * from './call-edits.js';
export * from './weave-feedback.js';
export * from './weave-endpoints.js';
