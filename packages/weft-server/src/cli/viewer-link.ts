/**
 * The trace viewer's link to a trace or a call, for the CLI (`calls ls`, `calls show`); defined in `internal/viewer-link.ts`, which the SDK's first-trace notice uses too.
 * @module
 */
export { viewerLink } from 'weft-trace/client';
