/**
 * The text of a prompt file (`<name>.prompt.md`): YAML front matter and the messages as `## <role>` sections; what
 * `weft prompts pull` writes and what the Prompts page diffs between versions (so the page's diff is the diff a
 * review of the files shows). No Node.js module: the viewer bundles it.
 * @module
 */
import { stringify } from 'yaml';
import type { PromptValue } from 'weft-trace/viewer';

/** The roles a section heading names. */
export const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];
/** A section heading line `## <role>`. */
export const HEADING = new RegExp(`^## (${ROLES.join('|')})[ \\t]*$`, 'm');

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

