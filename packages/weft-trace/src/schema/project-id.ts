/**
 * The one rule for a project id, `<entity>/<project>`, shared by init(), the CLI and the server, and its one message.
 * @module
 */
import { z } from 'zod';
import { CONTROL_CHARS } from './common.js';

/**
 * True when `value` is a project id `<entity>/<project>` (e.g. `acme/demo`): two names joined by one `/`,
 * neither empty nor holding a `/` or a control character, neither with spaces around it.
 */
export function isProjectId(value: unknown): value is string {
  if (typeof value !== 'string' || CONTROL_CHARS.test(value)) return false;
  const names = value.split('/');
  return names.length === 2 && names.every((n) => n !== '' && n.trim() === n);
}

/**
 * The message for a value that is not a project id: the expected shape, an example and the value (where
 * the value came from, e.g. an env var, is added by the caller that knows it).
 * @example projectIdMessage('quickstart') // 'expected <entity>/<project> such as acme/demo, got "quickstart"'
 */
export function projectIdMessage(value: unknown): string {
  const got = typeof value === 'string' ? JSON.stringify(value) : `${String(value)} (${typeof value})`;
  return `expected <entity>/<project> such as acme/demo, got ${got}`;
}

/** `<entity>/<project>`: the project id of every request body (a 422 with {@link projectIdMessage} otherwise). */
export const ProjectId = z.string().refine(isProjectId, { error: (issue) => projectIdMessage(issue.input) });
