/**
 * A finished model request, as a wrapper reports it (format, request, response), turned into trajectory exchanges.
 * @module
 */
import { aiSdkExchanges } from './ai-sdk-convert.js';
import { anthropicExchange } from './anthropic-convert.js';
import type { Exchange } from './chat-shape.js';
import { chatExchange, responsesExchange } from './openai-convert.js';

type Obj = Record<string, unknown>;

/** The exchanges of one report; none for a format or response that holds no conversation (embeddings, an error body). */
export function exchangesOf(format: string, request: Obj, response: unknown): Exchange[] {
  let one: Exchange | undefined;
  switch (format) {
    case 'openai.chat':
      one = chatExchange(request, response);
      break;
    case 'openai.responses':
      one = responsesExchange(request, response);
      break;
    case 'anthropic.messages':
      one = anthropicExchange(request, response);
      break;
    case 'ai':
      return aiSdkExchanges(request, response);
  }
  return one ? [one] : [];
}
