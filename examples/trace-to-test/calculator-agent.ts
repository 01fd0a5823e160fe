// The app of the trace-to-test example (docs/evaluations.md, "A trace becomes a test"): a calculator agent. The model
// asks for the `calculator` tool, the agent runs it and sends the result back, then reads the model's answer as a number.
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { op, wrapOpenAI } from 'weft-trace';

// OPENAI_BASE_URL and OPENAI_API_KEY as the SDK reads them; the SDK wants a key even when every answer is replayed.
const openai = wrapOpenAI(new OpenAI({ apiKey: process.env['OPENAI_API_KEY'] ?? 'unused-in-replay', maxRetries: 0 }));

const CALCULATOR = {
  type: 'function' as const,
  function: {
    name: 'calculator',
    description: 'Evaluates one arithmetic operation: a + b, a - b, a * b or a / b',
    parameters: { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] },
  },
};

/** Evaluates `a <op> b` (NaN for anything else). */
function calculate(expression: string): number {
  const m = /(-?\d+(?:\.\d+)?)\s*([-+*/])\s*(-?\d+(?:\.\d+)?)/.exec(expression);
  if (!m) return Number.NaN;
  const [a, b] = [Number(m[1]), Number(m[3])];
  return m[2] === '+' ? a + b : m[2] === '-' ? a - b : m[2] === '*' ? a * b : a / b;
}

/** Answers an arithmetic question with the model and the calculator tool. */
export const calculatorAgent = op(async function calculatorAgent(question: string): Promise<number> {
  const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: question }];
  const first = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: [CALCULATOR] });
  const asked = first.choices[0]!.message;
  messages.push(asked);
  for (const call of asked.tool_calls ?? []) {
    if (call.type !== 'function') continue;
    const { expression } = JSON.parse(call.function.arguments) as { expression: string };
    messages.push({ role: 'tool', tool_call_id: call.id, content: String(calculate(expression)) });
  }
  const final = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools: [CALCULATOR] });
  const answer = final.choices[0]?.message.content ?? '';
  return Number(answer);
});
