// An evaluation as a vitest suite (docs/evaluations.md): a support-ticket classifier scored per ticket, every ticket
// one test, the file one evaluation run. Run it: `npm run build`, `npx weft serve`, then
// `WEFT_PROJECT=local/vitest-evals npx vitest run --root examples/vitest`.
import { exactMatch } from 'weft-trace';
import { describeEval, evalTest } from 'weft-trace/vitest';

type Label = 'billing' | 'bug' | 'other';
type Ticket = { text: string; expected: Label };

/** The system under test: keyword rules, first match wins. */
const RULES: Array<[RegExp, Label]> = [[/refund|invoice|charged/i, 'billing'], [/crash|error|broken/i, 'bug']];
function triage(ticket: Ticket): Label {
  return RULES.find(([pattern]) => pattern.test(ticket.text))?.[1] ?? 'other';
}

/** A second score: 1 for the right label, 0.5 for `other` (a human looks at it), 0 for a wrong team. */
function routing({ output, expected }: { output: Label; expected: Label }): number {
  return output === expected ? 1 : output === 'other' ? 0.5 : 0;
}

describeEval<Ticket, Label>('ticket-triage', {
  rows: [
    { text: 'I was charged twice this month', expected: 'billing' },
    { text: 'The app crashes when I open settings', expected: 'bug' },
    { text: 'Can you add a dark mode?', expected: 'other' },
  ],
  task: triage,
  scorers: [exactMatch(), routing],
  threshold: { exact_match: 1, routing: 1 },
}, () => {
  // a row written as its own test, beside the table above
  evalTest('a refund request that mentions an error', { text: 'Refund please, the payment page showed an error', expected: 'billing' });
});
