/**
 * Prompt files (`<name>.prompt.md`, `weft prompts pull|push|diff`): YAML front matter for what a reviewer reads as
 * settings (name, model, params, tools, response format) and the messages as markdown sections `## <role>`, so a
 * change to a prompt reads as a diff of its text. A file holds the same value as the server (same digest); text
 * that would not survive the sections (a content with leading or trailing blank space, a line that reads as a role
 * heading, a message with more than role and content) is written in the front matter instead.
 * @module
 */
import { parse } from 'yaml';
import { promptValue, type PromptDefinition } from 'weft-trace/client';
import { HEADING, ROLES } from './prompt-file-text.js';

export { promptFileText } from './prompt-file-text.js';

/** The extension of a prompt file. */
export const PROMPT_FILE_EXT = '.prompt.md';

const FRONT = /^---\n([\s\S]*?)\n---\n?/;

/**
 * The definition a prompt file holds.
 * @throws {Error} naming `file` when there is no front matter, its YAML is invalid, or the prompt is not valid.
 */
export function parsePromptFile(text: string, file: string): PromptDefinition {
  const normalized = text.replace(/\r\n/g, '\n');
  const m = FRONT.exec(normalized);
  if (!m) throw new Error(`${file}: expected YAML front matter between "---" lines`);
  let front: Record<string, unknown>;
  try {
    front = (parse(m[1]!) ?? {}) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`${file}: front matter: ${(err as Error).message}`);
  }
  const body = normalized.slice(m[0].length).trim();
  const def: Record<string, unknown> = { ...front };
  delete def['type'];
  if (front['type'] === 'text') {
    if (def['template'] === undefined) def['template'] = body;
  } else if (def['messages'] === undefined) {
    const parts = body.split(new RegExp(HEADING.source, 'm'));
    if (parts[0]!.trim() !== '') throw new Error(`${file}: text before the first "## <role>" heading (roles: ${ROLES.join(', ')})`);
    const messages = [];
    for (let i = 1; i < parts.length; i += 2) messages.push({ role: parts[i]!, content: parts[i + 1]!.trim() });
    def['messages'] = messages;
  }
  try {
    promptValue(def as unknown as PromptDefinition);
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
  return def as unknown as PromptDefinition;
}
