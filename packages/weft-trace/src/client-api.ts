/**
 * The `weft-trace/client` entry point: the typed client of a weft server without the tracing SDK around it (no
 * `init()`, no instrumentation loaded), and what a program built on it uses beside it: the client's errors, its
 * default base URL, JSONL reading and the query builder; the spool a traced process left behind (`flushSpoolDir`,
 * `defaultSpoolDir`: `weft flush`); viewer links; progress lines on stderr; `safeMessage` (the message of anything
 * thrown). weft-server's command line is built on it. The wire's schemas are `weft-trace/wire`.
 * @module
 */
export { Client } from './api/client.js';
export { APIConnectionError, APIError, UnexpectedResponseError } from './api/core/api-errors.js';
export { DEFAULT_BASE_URL } from './api/core/client-options.js';
export { jsonlLines } from './api/core/jsonl-lines.js';
export { q } from './api/resources/query-builder.js';
export type { ExportOptions } from './export/export-options.js';
export { flushSpoolDir } from './export/spool-flush.js';
export { defaultSpoolDir } from './export/spool-location.js';
export { type Progress, rateSummary, startProgress } from './internal/progress.js';
export { safeMessage } from './internal/safe-message.js';
export { viewerLink } from './internal/viewer-link.js';
export { definitionOf, getPrompt, LABELS_CLASS, Prompt, PROMPT_CLASS, type PromptDefinition, type PromptLabels, promptValue, type PromptValue, publishPrompt, readPromptLabels, setPromptLabel } from './prompts/index.js';
