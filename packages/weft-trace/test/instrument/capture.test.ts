// @weft-test: runtime
// What a call records: inputs by name, display name, postprocessing, summarize (usage merged up), attributes, redaction, mask.
import { describe, expect, it } from 'vitest';
import { op } from '../../src/index.js';
import { useTestServer } from 'weft-test-kit/server.js';
import { one, traced } from 'weft-test-kit/traced-calls.js';

const server = useTestServer();

describe('inputs and outputs', () => {
  it('names inputs from the source even when a default holds a URL, and honours parameterNames', async () => {
    const fetchPage = op(function fetchPage(url = 'https://example.com/docs', page = 1) { return `${url}#${page}`; });
    const positional = op((...args: number[]) => args.length, { name: 'positional', parameterNames: ['first', 'second'] });
    const calls = await traced(server(), 'names', () => {
      fetchPage('https://weft.dev/a', 2);
      positional(1, 2, 3);
    });
    expect(one(calls, 'fetchPage').inputs).toEqual({ url: 'https://weft.dev/a', page: 2 });
    expect(one(calls, 'positional').inputs).toEqual({ first: 1, second: 2, arg2: 3 });
  });

  it('gives all inputs of a call one size budget (maxTotalSize), not one per argument', async () => {
    const page = () => Array.from({ length: 20 }, (_, i) => `${i}:${'x'.repeat(5_000)}`); // ~100 KB of JSON each
    const many = op(function many(a: string[], b: string[], c: string[], d: string[], e: string[], f: string[]) {
      return a.length + b.length + c.length + d.length + e.length + f.length;
    });
    const calls = await traced(server(), 'input-budget', () => {
      expect(many(page(), page(), page(), page(), page(), page())).toBe(120);
    });
    const inputs = one(calls, 'many').inputs!;
    const json = JSON.stringify(inputs);
    expect(json.length).toBeLessThan(262_144 * 1.1); // about 600 KB without a shared budget
    expect(json).toContain('[truncated: size limit]');
    expect(Object.keys(inputs)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']); // every argument still named
  });

  it('applies callDisplayName (string or function), postprocessInputs and postprocessOutput without changing what the caller gets', async () => {
    const result = { text: 'hi', raw: 'x'.repeat(50) };
    const complete = op(function complete(prompt: string, model: string) { return result; }, {
      callDisplayName: (prompt, model) => `${model}: ${prompt}`,
      postprocessInputs: ({ prompt, ...rest }) => ({ ...rest, promptLength: String(prompt).length }),
      postprocessOutput: (out) => out.text,
    });
    const fixed = op(function fixed() { return 1; }, { callDisplayName: 'Fixed name' });
    const calls = await traced(server(), 'post', () => {
      expect(complete('hello', 'm-1')).toBe(result);
      fixed();
    });
    expect(one(calls, 'complete')).toMatchObject({ display_name: 'm-1: hello', inputs: { model: 'm-1', promptLength: 5 }, output: 'hi' });
    expect(one(calls, 'fixed').display_name).toBe('Fixed name');
  });

  it('puts summarize() usage into summary.usage and adds it up into every ancestor', async () => {
    const llm = op(async function llm(model: string, tokens: number) {
      return { model, usage: { prompt_tokens: tokens, completion_tokens: 1, total_tokens: tokens + 1 } };
    }, {
      summarize: (r) => ({ usage: { [r.model]: { ...r.usage, requests: 1 } }, model_family: 'test' }),
    });
    const step = op(async function step() { await llm('a', 10); await llm('b', 5); });
    const agent = op(async function agent() { await step(); await llm('a', 1); });
    const calls = await traced(server(), 'usage', agent);
    expect(one(calls, 'agent').summary?.usage).toEqual({
      a: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13, requests: 2 },
      b: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6, requests: 1 },
    });
    expect(one(calls, 'step').summary?.usage).toEqual({
      a: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11, requests: 1 },
      b: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6, requests: 1 },
    });
    expect(one(calls, 'agent').summary?.status_counts).toEqual({ success: 5, error: 0 });
    expect(calls.find((c) => c.op_name === 'llm')?.summary).toMatchObject({ model_family: 'test' });
    expect(one(calls, 'agent').summary).not.toHaveProperty('model_family');
  });

  it('records op attributes; a throwing summarize never loses the call', async () => {
    const f = op(function tagged() { return 1; }, { attributes: { team: 'core', nested: { level: 2 } }, summarize: () => { throw new Error('no'); } });
    const calls = await traced(server(), 'attrs', () => expect(f()).toBe(1));
    expect(one(calls, 'tagged')).toMatchObject({ attributes: { team: 'core', nested: { level: 2 } }, output: 1 });
  });
});

describe('redaction and mask', () => {
  it('redacts default keys at any depth in inputs, outputs and attributes, and parameter names too', async () => {
    const login = op(function login(user: string, password: string, options: Record<string, unknown>) {
      return { user, session: { access_token: 'tok-123', expires_in: 60 } };
    }, { attributes: { apiKey: 'attr-secret', region: 'eu' } });
    const calls = await traced(server(), 'redact', () => {
      const out = login('ada', 'hunter2', { headers: { Authorization: 'Bearer abc', 'x-api-key': 'k' }, max_tokens: 5, cookie: 'c=1' });
      expect(out.session.access_token).toBe('tok-123');
    });
    const c = one(calls, 'login');
    expect(c.inputs).toEqual({
      user: 'ada', password: 'REDACTED',
      options: { headers: { Authorization: 'REDACTED', 'x-api-key': 'REDACTED' }, max_tokens: 5, cookie: 'REDACTED' },
    });
    expect(c.output).toEqual({ user: 'ada', session: { access_token: 'REDACTED', expires_in: 60 } });
    expect(c.attributes).toEqual({ apiKey: 'REDACTED', region: 'eu' });
    expect(JSON.stringify(c)).not.toMatch(/hunter2|tok-123|Bearer abc|attr-secret/);
  });

  it('uses init({ redactKeys }) instead of the default list', async () => {
    const f = op(function f(ssn: string, password: string) { return { ssn, password }; });
    const calls = await traced(server(), 'redact-custom', () => f('123-45-6789', 'pw'), { redactKeys: ['ssn'] });
    expect(one(calls, 'f').inputs).toEqual({ ssn: 'REDACTED', password: 'pw' });
  });

  it('runs mask on inputs and outputs, and withholds the value when mask throws (fail closed)', async () => {
    const mask = (v: unknown): unknown => {
      const text = JSON.stringify(v);
      if (text.includes('explode')) throw new Error('mask bug');
      return JSON.parse(text.replace(/\d{4}-\d{4}-\d{4}-\d{4}/g, '****')) as unknown;
    };
    const pay = op(function pay(card: string) { return `charged ${card}`; });
    const calls = await traced(server(), 'mask', () => {
      expect(pay('4111-1111-1111-1111')).toBe('charged 4111-1111-1111-1111');
      expect(pay('explode')).toBe('charged explode');
    }, { mask });
    const [ok, failed] = calls;
    expect(ok).toMatchObject({ inputs: { card: '****' }, output: 'charged ****' });
    expect(failed).toMatchObject({ inputs: { value: '[mask threw: value withheld]' }, output: '[mask threw: value withheld]' });
    expect(JSON.stringify(calls)).not.toMatch(/4111-1111|explode/);
  });
});
