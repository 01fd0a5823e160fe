/**
 * One variant sent to its provider through the provider's own SDK (`openai`, `@anthropic-ai/sdk`, `@google/genai`),
 * wrapped by weft-trace's wrappers so the model call is recorded as any traced app's is (chat, usage, cost), streamed:
 * the text arrives piece by piece. Each SDK is loaded when its provider is first called (a worker loads one).
 * @module
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { Prompt, withAttributes, wrapAnthropic, wrapGoogleGenAI, wrapOpenAI } from 'weft-trace';
import type { Variant } from '../playground-job.js';
import { missingKeyMessage, providerConfig } from '../providers.js';

type Env = Readonly<Record<string, string | undefined>>;
type Message = { role: string; content: string };

/** The variant's messages with `values` filled in (`{{name}}`). @throws {PromptVariableError} for a variable without a value. */
export function filledMessages(variant: Variant, values: Record<string, unknown>): Message[] {
  return [...new Prompt({ name: 'playground', messages: variant.messages }).format(values as Record<string, string>)];
}

async function* openaiText(variant: Variant, messages: Message[], env: Env): AsyncGenerator<string> {
  const { apiKey, baseUrl } = providerConfig('openai', env);
  const { default: OpenAIClient } = await import('openai');
  const client = wrapOpenAI(new OpenAIClient({ apiKey, ...(baseUrl ? { baseURL: baseUrl } : {}), maxRetries: 0 }));
  const stream = await client.chat.completions.create({
    ...variant.params, model: variant.model, messages: messages as OpenAI.ChatCompletionMessageParam[], stream: true, stream_options: { include_usage: true },
  } as OpenAI.ChatCompletionCreateParamsStreaming);
  for await (const chunk of stream) {
    const text = chunk.choices[0]?.delta?.content;
    if (text) yield text;
  }
}

async function* anthropicText(variant: Variant, messages: Message[], env: Env): AsyncGenerator<string> {
  const { apiKey, baseUrl } = providerConfig('anthropic', env);
  const { default: AnthropicClient } = await import('@anthropic-ai/sdk');
  const client = wrapAnthropic(new AnthropicClient({ apiKey, ...(baseUrl ? { baseURL: baseUrl } : {}), maxRetries: 0 }));
  const system = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => m.content).join('\n\n');
  const turns = messages.filter((m) => m.role === 'user' || m.role === 'assistant') as Anthropic.MessageParam[];
  const stream = await client.messages.create({
    max_tokens: 1024, ...variant.params, model: variant.model, messages: turns, ...(system ? { system } : {}), stream: true,
  } as Anthropic.MessageCreateParamsStreaming);
  for await (const event of stream) {
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield event.delta.text;
  }
}

async function* googleText(variant: Variant, messages: Message[], env: Env): AsyncGenerator<string> {
  const { apiKey, baseUrl } = providerConfig('google', env);
  const { GoogleGenAI } = await import('@google/genai');
  const ai = wrapGoogleGenAI(new GoogleGenAI({ apiKey: apiKey!, ...(baseUrl ? { httpOptions: { baseUrl } } : {}) }));
  const system = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => m.content).join('\n\n');
  const contents = messages.filter((m) => m.role === 'user' || m.role === 'assistant').map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] }));
  const stream = await ai.models.generateContentStream({ model: variant.model, contents, config: { ...variant.params, ...(system ? { systemInstruction: system } : {}) } });
  for await (const chunk of stream) {
    if (chunk.text) yield chunk.text;
  }
}

const BY_PROVIDER = { openai: openaiText, anthropic: anthropicText, google: googleText } as const;

/**
 * Sends `variant` (its variables filled from `values`) and hands each piece of the reply's text to `onText`; the
 * model call is recorded with `weft.prompt.ref` when the variant names a prompt version.
 * @returns the whole text.
 * @throws {Error} saying which variable to set when the provider has no key; the SDK's error when the provider fails.
 */
export async function callVariant(variant: Variant, values: Record<string, unknown>, env: Env, onText: (text: string) => void): Promise<string> {
  if (providerConfig(variant.provider, env).apiKey === undefined) throw new Error(missingKeyMessage(variant.provider));
  const messages = filledMessages(variant, values);
  const attributes = variant.prompt_ref ? { 'weft.prompt.ref': variant.prompt_ref } : {};
  return withAttributes(attributes, async () => {
    let text = '';
    for await (const piece of BY_PROVIDER[variant.provider](variant, messages, env)) {
      text += piece;
      onText(piece);
    }
    return text;
  });
}
