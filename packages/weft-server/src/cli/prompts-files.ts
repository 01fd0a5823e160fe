/**
 * Prompt files (`<name>.prompt.md`, `weft prompts pull|push|diff`): YAML front matter for what a reviewer reads as
 * settings (name, model, params, tools, response format) and the messages as markdown sections `## <role>`, so a
 * change to a prompt reads as a diff of its text. A file holds the same value as the server (same digest); text
 * that would not survive the sections (a content with leading or trailing blank space, a line that reads as a role
 * heading, a message with more than role and content) is written in the front matter instead.
 * @module
 */
import { parse, stringify } from 'yaml';
import { promptValue, type PromptDefinition, type PromptValue } from 'weft-trace/client';

/** The extension of a prompt file. */
export const PROMPT_FILE_EXT = '.prompt.md';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];
const HEADING = new RegExp(`^## (${ROLES.join('|')})[ \\t]*$`, 'm');
const FRONT = /^---\n([\s\S]*?)\n---\n?/;

/** Text the sections keep as written: no blank space at its ends and no line that reads as a role heading. */
function sectionSafe(text: string): boolean {
  return text.length > 0 && text === text.trim() && !HEADING.test(text) && !text.startsWith('---');
}

function messagesInSections(v: PromptValue): boolean {
  return v.messages !== null && v.messages.length > 0 && v.messages.every((m) => Object.keys(m).length === 2 && ROLES.includes(m.role) && sectionSafe(m.content));
}

/** The file text of a prompt version (`value` as stored). */
export function promptFileText(value: PromptValue): string {
  const front: Record<string, unknown> = { name: value.name };
  if (value.description !== null) front['description'] = value.description;
  if (value.model !== null) front['model'] = value.model;
  if (Object.keys(value.params).length > 0) front['params'] = value.params;
  if (value.tools !== null) front['tools'] = value.tools;
  if (value.response_format !== null) front['response_format'] = value.response_format;
  let body = '';
  if (value.template !== null) {
    if (sectionSafe(value.template)) body = `${value.template}\n`;
    else front['template'] = value.template;
    front['type'] = 'text';
  } else if (messagesInSections(value)) {
    body = value.messages!.map((m) => `## ${m.role}\n\n${m.content}\n`).join('\n');
  } else front['messages'] = value.messages;
  return `---\n${stringify(front, { lineWidth: 0 })}---\n${body ? `\n${body}` : ''}`;
}

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
