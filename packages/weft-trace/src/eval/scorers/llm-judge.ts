/**
 * Built-in LLM judge: a rubric scored by a model through an OpenAI or Anthropic client (wrap it with wrapOpenAI/wrapAnthropic, and the judge's model call is traced beneath the scorer's).
 * @module
 */
import { named, type Scorer } from '../scorer.js';

/** The part of an OpenAI client the judge uses. */
interface OpenAILike {
  chat: { completions: { create(body: Record<string, unknown>): PromiseLike<{ choices: Array<{ message?: { content?: string | null } }> }> } };
}
/** The part of an Anthropic client the judge uses. */
interface AnthropicLike {
  messages: { create(body: Record<string, unknown>): PromiseLike<{ content: Array<{ type: string; text?: string }> }> };
}

/** Options of {@link llmJudge}. */
export interface LlmJudgeOptions {
  /** An OpenAI or Anthropic client (the SDK's, ideally wrapped with `wrapOpenAI` / `wrapAnthropic`). */
  client: unknown;
  /** The model asked, e.g. `gpt-4.1-mini` or `claude-haiku-4-5`. */
  model: string;
  /** What a good output is, in words: the judge scores the output against it from 0 (fails) to 1 (fully meets). */
  rubric: string;
  /** Score name. @defaultValue `llm_judge` */
  name?: string;
  /** Adds a boolean `pass` score: `score >= passThreshold`. @defaultValue none */
  passThreshold?: number;
  /** Most tokens of the judge's answer. @defaultValue 300 */
  maxTokens?: number;
}

const INSTRUCTIONS =
  'You are an impartial grader. Score the OUTPUT against the RUBRIC, using the INPUT and EXPECTED answer when given. ' +
  'Answer with one JSON object only: {"score": <a number from 0 to 1>, "reason": "<one sentence>"}.';

/** The judge's user message. */
export function judgePrompt(rubric: string, row: unknown, output: unknown, expected: unknown): string {
  const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v, null, 1) ?? 'undefined');
  return `RUBRIC:\n${rubric}\n\nINPUT:\n${show(row)}\n\nOUTPUT:\n${show(output)}\n\nEXPECTED:\n${show(expected)}`;
}

/** Reads `{score, reason}` from the judge's reply (the first JSON object in it); the score is clamped to [0, 1]. */
export function readVerdict(text: string): { score: number; reason: string } {
  const m = /\{[\s\S]*\}/.exec(text);
  if (!m) throw new Error(`llm judge: no JSON object in the reply: ${text.slice(0, 200)}`);
  const v = JSON.parse(m[0]) as { score?: unknown; reason?: unknown };
  const score = typeof v.score === 'number' ? v.score : Number(v.score);
  if (!Number.isFinite(score)) throw new Error(`llm judge: no numeric "score" in the reply: ${m[0].slice(0, 200)}`);
  return { score: Math.min(1, Math.max(0, score)), reason: typeof v.reason === 'string' ? v.reason : '' };
}

async function ask(client: unknown, model: string, prompt: string, maxTokens: number): Promise<string> {
  const c = client as Partial<OpenAILike & AnthropicLike>;
  if (typeof c.chat?.completions?.create === 'function') {
    const res = await c.chat.completions.create({ model, max_tokens: maxTokens, temperature: 0, messages: [{ role: 'system', content: INSTRUCTIONS }, { role: 'user', content: prompt }] });
    return res.choices[0]?.message?.content ?? '';
  }
  const res = await c.messages!.create({ model, max_tokens: maxTokens, temperature: 0, system: INSTRUCTIONS, messages: [{ role: 'user', content: prompt }] });
  return res.content.filter((b) => b.type === 'text').map((b) => b.text ?? '').join('');
}

/**
 * An LLM judge: asks `model` to score each output against `rubric` and returns `{ score, reason, pass? }`
 * (scores `llm_judge.score` and, with `passThreshold`, `llm_judge.pass`; `reason` stays in the scorer call's
 * output). A reply without a readable score throws, which is recorded as that row's scorer failure.
 * @example
 * const judge = llmJudge({ client: wrapOpenAI(new OpenAI()), model: 'gpt-4.1-mini', rubric: 'Answers the question, cites a source.' });
 * @throws {TypeError} when `client` is neither an OpenAI nor an Anthropic client, or `rubric` / `model` is empty.
 */
export function llmJudge(options: LlmJudgeOptions): Scorer {
  const c = options.client as Partial<OpenAILike & AnthropicLike> | undefined;
  if (typeof c?.chat?.completions?.create !== 'function' && typeof c?.messages?.create !== 'function') {
    throw new TypeError('llmJudge: client must be an OpenAI client (chat.completions.create) or an Anthropic client (messages.create)');
  }
  if (!options.rubric || !options.model) throw new TypeError('llmJudge: rubric and model must be non-empty strings');
  const { passThreshold } = options;
  return named(options.name ?? 'llm_judge', async ({ row, output, expected }) => {
    const verdict = readVerdict(await ask(c, options.model, judgePrompt(options.rubric, row, output, expected), options.maxTokens ?? 300));
    return passThreshold === undefined ? verdict : { ...verdict, pass: verdict.score >= passThreshold };
  });
}
