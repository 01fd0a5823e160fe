// Runs the op() examples (streams, decorators, redaction, sampling, context helpers) as child processes and checks what they print.
import { describe, expect, it } from 'vitest';
import { runExampleOk } from 'weft-test-kit/examples.js';

const TIMEOUT_MS = 60_000;

/** Runs `examples/<file>` against an in-process server; resolves with its stdout (fails on a non-zero exit). */
function runExample(file: string): Promise<string> {
  return runExampleOk(`examples/${file}`, [], { WEFT_DISABLED: undefined, WEFT_PROJECT: undefined });
}

const line = (stdout: string, prefix: string): string => stdout.split('\n').find((l) => l.startsWith(prefix)) ?? `(no line starting with ${prefix})`;

// the five children at once (each its own process and in-process server, nothing shared): the file takes about its
// longest example instead of the sum of the five
describe.concurrent('op() examples', () => {
  it('streams.ts: every shape returns what it would untraced, and streams end as their consumer ends them', async () => {
    const out = await runExample('streams.ts');
    expect(out).toContain('tokenize returns an array (sync stays sync)');
    expect(JSON.parse(line(out, 'pipeline result ').slice('pipeline result '.length))).toEqual({
      tokens: 2, dims: 2, data: 'echo: weft streams', status: 200, answer: 'you asked about weft streams',
      firstTwo: ['alpha', 'beta'], parts: ['part-1', 'part-2', 'part-3'],
    });
    expect(line(out, 'recorded chat:')).toBe('recorded chat: output="you asked about weft streams" status_counts={"success":1,"error":0}');
    expect(line(out, 'recorded lines:')).toBe('recorded lines: output=["alpha","beta"] status_counts={"success":0,"error":0,"cancelled":1}');
    expect(line(out, 'recorded download:')).toContain('output=["part-1","part-2","part-3"]');
    expect(out).toMatch(/ {2}✓ complete +<?\d+ ms/);
  }, TIMEOUT_MS + 5_000);

  it('decorators.ts: Class.method op names, private and static methods, this kept', async () => {
    const out = await runExample('decorators.ts');
    expect(out).toContain("lookup weft -> [ 'op() wraps a function', 'flush() sends what is queued' ]");
    expect(out).toContain('recorded Librarian.open inputs={"name":"ada"}');
    expect(out).toContain('recorded Librarian.lookup inputs={"topic":"weft","limit":2}');
    expect(out).toMatch(/ {2}✓ Librarian\.#pick/);
  }, TIMEOUT_MS + 5_000);

  it('redaction.ts: secrets and e-mails never recorded, odd values made JSON-safe, a throwing mask withholds', async () => {
    const out = await runExample('redaction.ts');
    const api = line(out, 'recorded callApi:');
    expect(api).toContain('"Authorization":"REDACTED","x-api-key":"REDACTED"');
    expect(api).toContain('"password":"REDACTED","max_tokens":256');
    expect(api).toContain('"access_token":"REDACTED","user":"<email>"');
    expect(out).not.toMatch(/sk-live|key-live|hunter2|tok-live|ada@example\.com|DROP TABLE/);
    expect(line(out, 'recorded describeThings:')).toContain('"self":"[Circular]"');
    expect(line(out, 'recorded runSql:')).toContain('inputs={"value":"[mask threw: value withheld]"}');
  }, TIMEOUT_MS + 5_000);

  it('sampling.ts: about 30% of traces, each whole; disabled records nothing', async () => {
    const out = await runExample('sampling.ts');
    const m = /sampleRate 0\.3: (\d+) of 100 traces recorded; every recorded trace is whole: true/.exec(out);
    expect(m, out).not.toBeNull();
    // Binomial(100, 0.3): outside [10, 50] has probability < 1e-5
    expect(Number(m?.[1])).toBeGreaterThan(10);
    expect(Number(m?.[1])).toBeLessThan(50);
    expect(out).toContain('disabled: answer still runs -> 1 doc(s) for off');
    expect(out).toContain('disabled: calls recorded since -> 0');
  }, TIMEOUT_MS + 5_000);

  it('context-helpers.ts: thread and turns, run steps, attributes, invoke() and addFeedback()', async () => {
    const out = await runExample('context-helpers.ts');
    const lines = out.split('\n').filter((l) => l.startsWith('recorded '));
    expect(lines.filter((l) => l.includes('thread=thread-42 turn=own'))).toHaveLength(2);
    expect(lines.filter((l) => l.includes('thread=thread-42 turn=parent'))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('recorded rollout')).map((l) => /step=(\d)/.exec(l)?.[1])).toEqual(['0', '1', '2']);
    expect(lines.filter((l) => l.includes('"env":"example"'))).toHaveLength(7);
    expect(out).toContain('invoke -> which: lookup runs inside a parent call (call known: reply)');
    expect(out).toContain('feedback on reply: thumbs {"up":true} by example-user');
  }, TIMEOUT_MS + 5_000);
});
