// Sampling and switches: init({ sampleRate }) keeps whole traces or none; init({ enabled: false }) makes op() a pass-through.
import { flush, init, op } from '../packages/weft-trace/src/index.js';
import { runExample } from './run-example.js';

const retrieve = op(async function retrieve(query: string) {
  return [`doc about ${query}`];
});
const answer = op(async function answer(question: string) {
  const docs = await retrieve(question);
  return `${docs.length} doc(s) for ${question}`;
});

await runExample('sampling', async ({ project, recorded }) => {
  for (let i = 0; i < 100; i++) await answer(`question ${i}`);
  const calls = await recorded();
  const roots = calls.filter((c) => c.op_name === 'answer');
  const children = calls.filter((c) => c.op_name === 'retrieve');
  console.log(`sampleRate 0.3: ${roots.length} of 100 traces recorded; every recorded trace is whole: ${children.length === roots.length}`);

  init({ project, enabled: false });
  console.log(`disabled: answer still runs -> ${await answer('off')}`);
  await flush();
  console.log(`disabled: calls recorded since -> ${(await recorded()).length - calls.length}`);
}, { sampleRate: 0.3 });
