/**
 * The wrappers' side of trajectory capture: a finished model request reported to the rollout it ran in.
 * @module
 */
import type { ExchangeRecorder } from '../instrument/context.js';

type Obj = Record<string, unknown>;

/** The format of a wrapped SDK method by its op name (`openai.chat.completions.create` → `openai.chat`), or `undefined` (embeddings). */
function formatOf(opName: string): string | undefined {
  if (opName.startsWith('openai.chat.')) return 'openai.chat';
  if (opName.startsWith('openai.responses.')) return 'openai.responses';
  if (opName.startsWith('anthropic.messages.')) return 'anthropic.messages';
  if (opName.startsWith('ai.') && !opName.startsWith('ai.embed')) return 'ai';
  return undefined;
}

/**
 * What reports the response of the request `body` (made by the op `opName`) to `rollout`: called once the
 * response (or the folded stream) is known. The request is copied now (its message lists too), so messages the
 * caller adds afterwards are not taken for this request's. `undefined` outside a rollout or for a format that
 * holds no conversation; the only cost outside a rollout is the caller's `ctx.rollout` read.
 */
export function exchangeReporter(rollout: ExchangeRecorder, opName: string, body: Obj): ((response: unknown) => void) | undefined {
  const format = formatOf(opName);
  if (format === undefined) return undefined;
  const request = Object.assign({}, body);
  for (const k of ['messages', 'input', 'prompt']) if (Array.isArray(request[k])) request[k] = (request[k] as unknown[]).slice();
  return (response) => rollout.exchange(format, request, response);
}
