/**
 * Test helper: the fake OpenAI chat model's calculator agent (for examples/rl-rollouts.ts): offered a `calculator`
 * tool, it calls it on the question's arithmetic, then answers the tool's result; now and then it slips.
 * @module
 */

type Obj = Record<string, unknown>;

/** True when the request offers a function tool named `calculator`. */
export function offersCalculator(body: Obj): boolean {
  return Array.isArray(body['tools']) && (body['tools'] as Obj[]).some((t) => (t['function'] as Obj | undefined)?.['name'] === 'calculator');
}

/**
 * The assistant message of a calculator request, answer number `seq` of the fake: after a tool result, the result
 * (off by one when `seq % 5 === 0`); else a `calculator` call on the last user message's `a <op> b` (when
 * `seq % 7 === 0` it skips the tool and guesses the sum instead).
 */
export function calcMessage(body: Obj, seq: number): Obj {
  const messages = (Array.isArray(body['messages']) ? body['messages'] : []) as Obj[];
  const last = messages.at(-1);
  if (last?.['role'] === 'tool') {
    const value = Number(last['content']);
    return { role: 'assistant', content: String(seq % 5 === 0 ? value + 1 : value), refusal: null, annotations: [] };
  }
  const question = String([...messages].reverse().find((m) => m['role'] === 'user')?.['content'] ?? '');
  const m = /(-?\d+)\s*([-+*/])\s*(-?\d+)/.exec(question);
  if (!m) return { role: 'assistant', content: 'I need two numbers.', refusal: null, annotations: [] };
  if (seq % 7 === 0) return { role: 'assistant', content: String(Number(m[1]) + Number(m[3])), refusal: null, annotations: [] };
  const args = JSON.stringify({ expression: `${m[1]} ${m[2]} ${m[3]}` });
  return { role: 'assistant', content: null, refusal: null, annotations: [], tool_calls: [{ id: `call_${seq}`, type: 'function', function: { name: 'calculator', arguments: args } }] };
}

/** A `chat.completion` of {@link calcMessage}. */
export function calcCompletion(body: Obj, seq: number): Obj {
  const message = calcMessage(body, seq);
  const usage = { prompt_tokens: 60, completion_tokens: 12, total_tokens: 72 };
  return {
    id: `chatcmpl-calc-${seq}`,
    object: 'chat.completion',
    created: 1_763_900_000,
    model: `${String(body['model'])}-2024-07-18`,
    choices: [{ index: 0, message, logprobs: null, finish_reason: message['tool_calls'] ? 'tool_calls' : 'stop' }],
    usage,
  };
}
