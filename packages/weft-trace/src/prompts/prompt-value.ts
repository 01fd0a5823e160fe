/**
 * What a prompt version is: its definition (chat messages or a text template, the model, its parameters, tools and
 * response format) and the object value it is stored as (`/obj/create`, class `Prompt`), the same value (so the same
 * digest) from the SDK, from a prompt file and from the server.
 * @module
 */
import { ObjectId } from '../schema/objects.js';
import { weaveClass } from '../eval/refs.js';
import { PROMPT_CLASS } from './prompt-classes.js';

/** One chat message of a prompt; `content` may hold `{{variables}}`. */
export interface PromptMessage {
  /** `system`, `developer`, `user`, `assistant` or `tool`. */
  role: string;
  content: string;
}

/** A prompt as written: either `messages` (a chat prompt) or `template` (a text prompt). */
export interface PromptDefinition {
  /** Object id the prompt is published under (1-128 letters, digits, `-`, `_`, `.`). */
  name: string;
  /** Chat messages, in order. Give this or `template`. */
  messages?: readonly PromptMessage[];
  /** A text template. Give this or `messages`. */
  template?: string;
  /** The model to call, e.g. `gpt-4o-mini`. @defaultValue none */
  model?: string;
  /** Request parameters sent with the model (e.g. `{ temperature: 0.2, max_tokens: 200 }`), JSON. @defaultValue `{}` */
  params?: Record<string, unknown>;
  /** Tools, in the provider's shape (JSON). @defaultValue none */
  tools?: readonly unknown[];
  /** Response format, in the provider's shape (JSON). @defaultValue none */
  response_format?: unknown;
  /** A line saying what the prompt is for. @defaultValue none */
  description?: string;
}

/** The stored value of a prompt version (every key present, absent ones `null`, so equal prompts have equal digests). */
export interface PromptValue {
  _type: string;
  _class_name: string;
  _bases: string[];
  name: string;
  description: string | null;
  messages: PromptMessage[] | null;
  template: string | null;
  model: string | null;
  params: Record<string, unknown>;
  tools: unknown[] | null;
  response_format: unknown;
}

export { PROMPT_CLASS } from './prompt-classes.js';

/**
 * The stored value of `def`, checked.
 * @throws {TypeError} naming the field: a bad name, both or neither of `messages` and `template`, a message without
 *   a string `role` and `content`, `params` not an object.
 */
export function promptValue(def: PromptDefinition): PromptValue {
  const name = ObjectId.safeParse(def?.name);
  if (!name.success) throw new TypeError(`prompt name: expected 1-128 letters, digits, "-", "_" or ".", got ${JSON.stringify(def?.name)}`);
  const where = `prompt "${name.data}"`;
  if ((def.messages === undefined) === (def.template === undefined)) throw new TypeError(`${where}: give either messages or template`);
  if (def.template !== undefined && typeof def.template !== 'string') throw new TypeError(`${where}: template must be a string`);
  if (def.messages !== undefined) {
    if (!Array.isArray(def.messages)) throw new TypeError(`${where}: messages must be an array`);
    const bad = def.messages.findIndex((m) => typeof m?.role !== 'string' || typeof m?.content !== 'string');
    if (bad >= 0) throw new TypeError(`${where}: messages[${bad}] needs a string role and content`);
  }
  if (def.params !== undefined && (def.params === null || typeof def.params !== 'object' || Array.isArray(def.params))) throw new TypeError(`${where}: params must be an object`);
  if (def.tools !== undefined && !Array.isArray(def.tools)) throw new TypeError(`${where}: tools must be an array`);
  return {
    ...weaveClass(PROMPT_CLASS),
    name: name.data,
    description: def.description ?? null,
    messages: def.messages ? def.messages.map((m) => ({ ...m })) : null,
    template: def.template ?? null,
    model: def.model ?? null,
    params: { ...(def.params ?? {}) },
    tools: def.tools ? [...def.tools] : null,
    response_format: def.response_format ?? null,
  };
}

/** The definition a stored value holds (the inverse of {@link promptValue}). @throws {TypeError} when `val` is not a prompt. */
export function definitionOf(val: unknown, name: string): PromptDefinition {
  const v = (val ?? {}) as Partial<PromptValue>;
  if (!Array.isArray(v.messages) && typeof v.template !== 'string') throw new TypeError(`object "${name}" is not a prompt (no messages or template)`);
  return {
    name: typeof v.name === 'string' ? v.name : name,
    ...(Array.isArray(v.messages) ? { messages: v.messages } : { template: v.template! }),
    ...(typeof v.model === 'string' ? { model: v.model } : {}),
    ...(v.params && typeof v.params === 'object' ? { params: v.params } : {}),
    ...(Array.isArray(v.tools) ? { tools: v.tools } : {}),
    ...(v.response_format !== null && v.response_format !== undefined ? { response_format: v.response_format } : {}),
    ...(typeof v.description === 'string' ? { description: v.description } : {}),
  };
}
