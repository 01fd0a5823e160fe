/**
 * `Prompt`: one prompt version, formatted with its variables into messages that carry the version's ref.
 * @module
 */
import { markPrompt } from './prompt-marker.js';
import { fillTemplate, type TemplateValues, type TemplateVariables, variablesOf } from './prompt-template.js';
import { promptValue, type PromptDefinition, type PromptMessage, type PromptValue } from './prompt-value.js';

/** Where a prompt version lives on the server. */
export interface PromptVersion {
  /** `weave:///<entity>/<project>/object/<name>:<digest>`. */
  ref: string;
  /** The version's content digest. */
  digest: string;
  /** 0 for the first version, then 1, 2, ... (`v<N>`); `undefined` when not read from the server. */
  index?: number | undefined;
}

/** A model request made from a prompt: `model`, the parameters, the formatted `messages`, `tools` and `response_format` when set. */
export type PromptRequest = Record<string, unknown> & { messages: PromptMessage[] };

/**
 * One prompt version. `V` is the union of its variable names (inferred from a literal definition by
 * {@link definePrompt} and `publishPrompt`; `string` for one read from the server).
 * @example
 * const p = definePrompt({ name: 'greet', messages: [{ role: 'user', content: 'Hello {{name}}' }] });
 * p.format({ name: 'Ada' }); // [{ role: 'user', content: 'Hello Ada' }]
 */
export class Prompt<V extends string = string> {
  readonly name: string;
  /** The stored value (what the digest is of). */
  readonly value: PromptValue;
  /** The variable names the template uses, in order of first use. */
  readonly variables: string[];
  /** Set once published or read from the server (a local definition has none). */
  readonly version: PromptVersion | undefined;

  /** @throws {TypeError} when `def` is not a valid prompt (see `promptValue`). */
  constructor(def: PromptDefinition, version?: PromptVersion) {
    this.value = promptValue(def);
    this.name = this.value.name;
    this.version = version;
    const texts = this.value.messages ? this.value.messages.map((m) => m.content) : [this.value.template!];
    this.variables = [...new Set(texts.flatMap(variablesOf))];
  }

  /** `chat` when the prompt is messages, `text` when it is a template. */
  get kind(): 'chat' | 'text' {
    return this.value.messages ? 'chat' : 'text';
  }

  /** The prompt version's ref, when it has one. */
  get ref(): string | undefined {
    return this.version?.ref;
  }

  /**
   * The messages with the variables filled in (a text prompt is one `user` message). The array carries the version's
   * ref (non-enumerable), so a traced model call it is sent in records `weft.prompt.ref`.
   * @throws {PromptVariableError} naming a variable `values` lacks.
   */
  format(values: TemplateValues<V>): PromptMessage[] {
    const vals = values as Record<string, unknown>;
    const messages = this.value.messages
      ? this.value.messages.map((m) => ({ ...m, content: fillTemplate(m.content, vals, this.name) }))
      : [{ role: 'user', content: fillTemplate(this.value.template!, vals, this.name) }];
    return this.version ? markPrompt(messages, this.version.ref) : messages;
  }

  /**
   * A text prompt's text with the variables filled in (a string carries no ref: send `format()`'s messages for that).
   * @throws {TypeError} on a chat prompt. @throws {PromptVariableError} naming a variable `values` lacks.
   */
  formatText(values: TemplateValues<V>): string {
    if (this.value.template === null) throw new TypeError(`prompt "${this.name}" is a chat prompt: use format()`);
    return fillTemplate(this.value.template, values as Record<string, unknown>, this.name);
  }

  /**
   * A chat completion request body: `model` (when set), the parameters, `format(values)`'s messages, `tools` and
   * `response_format` (when set); `R` names the provider's request type, e.g.
   * `openai.chat.completions.create(prompt.toRequest<ChatCompletionCreateParamsNonStreaming>({ name }))` (not checked).
   * @throws {PromptVariableError} naming a variable `values` lacks.
   */
  toRequest<R extends object = PromptRequest>(values: TemplateValues<V>): R {
    const v = this.value;
    return <R>{
      ...(v.model !== null ? { model: v.model } : {}),
      ...v.params,
      messages: this.format(values),
      ...(v.tools !== null ? { tools: v.tools } : {}),
      ...(v.response_format !== null ? { response_format: v.response_format } : {}),
    };
  }
}

/** The variable names of a literal definition's messages or template. */
export type DefinitionVariables<D> = D extends { messages: readonly (infer M)[] }
  ? M extends { content: infer C extends string } ? TemplateVariables<C> : string
  : D extends { template: infer T extends string } ? TemplateVariables<T> : string;

/** A local prompt (not published), its variables typed from the literal definition. @throws {TypeError} as `Prompt`'s constructor. */
export function definePrompt<const D extends PromptDefinition>(def: D): Prompt<DefinitionVariables<D>> {
  return new Prompt(def);
}
