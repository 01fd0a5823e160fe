// A trace becomes a test (docs/evaluations.md): the question production answered wrongly, replayed from the cassette
// `weft calls cassette` wrote from its trace (__llm_cache__/calculator-agent.eval.test.ts.jsonl): no key, no network.
// (This repository's cassette was written from a trace recorded against the test suite's fake OpenAI server.)
import { exactMatch } from 'weft-trace';
import { describeEval } from 'weft-trace/vitest';
import { calculatorAgent } from './calculator-agent.js';

describeEval<{ question: string; expected: number }, number>('calculator-regressions', {
  rows: [{ question: 'What is 7 / 2?', expected: 3.5 }],
  task: (row) => calculatorAgent(row.question),
  scorers: [exactMatch()],
  threshold: { exact_match: 1 },
});
