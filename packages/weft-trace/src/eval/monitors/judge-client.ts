/**
 * The model client of a monitor's LLM judge: one OpenAI-compatible `POST /chat/completions` per score, through the
 * provider key of the process that runs the monitor (`OPENAI_API_KEY`, `OPENAI_BASE_URL`), rate-limited by p-queue.
 * @module
 */
import PQueue from 'p-queue';

/** Options of {@link judgeClient}. */
export interface JudgeClientOptions {
  /** Requests started per minute, at most (p-queue's `intervalCap` over a 60 s `interval`); at least 1. @defaultValue 60 */
  rpm?: number;
  /** The API key; env `OPENAI_API_KEY`. */
  apiKey?: string;
  /** The API's base URL (ending before `/chat/completions`); env `OPENAI_BASE_URL`. @defaultValue `https://api.openai.com/v1` */
  baseUrl?: string;
}

/** The part of an OpenAI client `llmJudge` uses, plus the queue that paces it. */
export interface JudgeClient {
  chat: { completions: { create(body: Record<string, unknown>): Promise<{ choices: Array<{ message?: { content?: string | null } }> }> } };
  /** The rate limiter: requests waiting in `size`, running in `pending`. */
  readonly queue: PQueue;
}

/**
 * An OpenAI-compatible chat client for the judge: each request waits its turn in a queue allowing `rpm` starts per
 * minute. A non-2xx answer rejects with the status and the start of the body.
 * @throws {TypeError} when `rpm` is not a number >= 1, or no API key is given nor in `OPENAI_API_KEY`.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function judgeClient(options: JudgeClientOptions = {}): JudgeClient {
  const rpm = options.rpm ?? 60;
  if (typeof rpm !== 'number' || !(rpm >= 1)) throw new TypeError(`llm_judge: rpm must be a number >= 1 (requests per minute), got ${String(rpm)} (${typeof rpm})`);
  const apiKey = options.apiKey ?? process.env.OPENAI_API_KEY;
  if (!apiKey) throw new TypeError('llm_judge: no API key: set OPENAI_API_KEY in the environment of the process running the monitor');
  const baseUrl = (options.baseUrl ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const queue = new PQueue({ intervalCap: Math.floor(rpm), interval: 60_000 });
  const post = async (body: Record<string, unknown>) => {
    const res = await fetch(`${baseUrl}/chat/completions`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`llm_judge: ${baseUrl}/chat/completions answered HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
    return (await res.json()) as { choices: Array<{ message?: { content?: string | null } }> };
  };
  return { queue, chat: { completions: { create: (body) => queue.add(() => post(body)) } } };
}
