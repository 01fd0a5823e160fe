/**
 * The answer to a request missing from the cassette in replay: an HTTP 404 whose error message names the request and the command that records it.
 * @module
 */
import { nodeBuiltin } from '../../internal/runtime.js';
import type { NormalizedRequest } from './key.js';
import { currentTestFile } from './scope.js';

type Obj = Record<string, unknown>;

/** The text of a message's `content`: a string, or its text parts joined. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((p) => (typeof p === 'string' ? p : (p as Obj | null)?.['text'])).filter((t): t is string => typeof t === 'string');
  return texts.length ? texts.join(' ') : undefined;
}

/** The last message's text (chat `messages`, Responses `input`, Gemini `contents`, `prompt`), else the body's JSON. */
function excerptOf(body: unknown): string {
  const b = (body ?? {}) as Obj;
  const list = [b['messages'], b['input'], b['contents']].find(Array.isArray) as Obj[] | undefined;
  const last = list?.at(-1);
  const text =
    (typeof b['input'] === 'string' ? b['input'] : undefined) ??
    textOf(last?.['content']) ??
    textOf(last?.['parts']) ??
    (typeof b['prompt'] === 'string' ? b['prompt'] : undefined) ??
    JSON.stringify(body) ??
    '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

/** The command that records the running test file (relative to the working directory). */
function recordCommand(): string {
  const test = currentTestFile();
  const path = nodeBuiltin('node:path');
  const file = test && path ? path.relative(process.cwd(), test) || test : '<test file>';
  return `WEFT_LLM_CACHE=record npx vitest run ${file}`;
}

/** The message of a request missing from `cassette`. */
export function missMessage(req: NormalizedRequest, key: string, cassette: string): string {
  const model = ((req.body ?? {}) as Obj)['model'];
  const what = `${req.method} ${req.path}${typeof model === 'string' ? ` (model ${model})` : ''}: "${excerptOf(req.body)}"`;
  return `weft LLM cache (replay): no recorded response for ${what}, key ${key}, in ${cassette}. Record it with: ${recordCommand()}`;
}

/**
 * A 404 the SDKs turn into their own error carrying `message` (OpenAI's and the AI SDK's read `error.message`,
 * Anthropic's too) and do not retry (`x-should-retry: false`; 404 is not a retried status).
 */
export function missResponse(message: string): Response {
  const body = { type: 'error', error: { type: 'llm_cache_miss', code: 'llm_cache_miss', message } };
  return new Response(JSON.stringify(body), { status: 404, headers: { 'content-type': 'application/json', 'x-should-retry': 'false' } });
}
