// Redaction and masking: secrets never leave the process, odd values are recorded safely, a failing mask withholds the value.
import { DEFAULT_REDACT_KEYS, op } from '../packages/weft-trace/src/index.js';
import { runExample } from './run-example.js';

/** Masks e-mail addresses in recorded inputs and outputs; refuses (throws on) raw SQL, so that value is withheld. */
function maskEmails(value: unknown): unknown {
  const text = JSON.stringify(value);
  if (/\bDROP TABLE\b/i.test(text)) throw new Error('refusing to record raw SQL');
  return JSON.parse(text.replace(/[\w.+-]+@[\w-]+\.[\w.]+/g, '<email>')) as unknown;
}

const callApi = op(function callApi(url: string, headers: Record<string, string>, body: Record<string, unknown>) {
  return { status: 200, session: { access_token: 'tok-live-123', user: body['email'] }, max_tokens: body['max_tokens'] };
});

const describeThings = op(function describeThings(things: unknown) {
  return 'described';
});

const runSql = op(function runSql(sql: string) {
  return sql.length;
});

await runExample('redaction', async ({ recorded }) => {
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic['self'] = cyclic;
  callApi('https://api.example.com/v1', { Authorization: 'Bearer sk-live', 'x-api-key': 'key-live' },
    { email: 'ada@example.com', password: 'hunter2', max_tokens: 256 });
  describeThings({ cyclic, big: 2n ** 70n, when: new Date(0), bytes: new Uint8Array([1, 2, 3]), tags: new Set(['a']), nan: NaN });
  runSql('DROP TABLE users');
  for (const c of await recorded()) console.log(`recorded ${c.op_name}: inputs=${JSON.stringify(c.inputs)} output=${JSON.stringify(c.output)}`);
}, { redactKeys: [...DEFAULT_REDACT_KEYS, 'session_id'], mask: maskEmails });
