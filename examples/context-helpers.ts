// Context helpers: a chat thread with turns, an RL-style run with steps, attributes for a block of code, and invoke() + addFeedback().
import { addFeedback, flush, getCurrentCall, op, setRunStep, withAttributes, withRun, withThread } from '../packages/weft-trace/src/index.js';
import { runExample } from './run-example.js';

const lookup = op(async function lookup(term: string) {
  return `${term}: ${getCurrentCall()?.opName} runs inside ${getCurrentCall()?.parentId ? 'a parent call' : 'no parent'}`;
});

const reply = op(async function reply(message: string) {
  return lookup(message.split(' ')[0] ?? message);
});

const rollout = op(async function rollout(episode: number) {
  return { episode, reward: episode % 2 };
});

await runExample('context-helpers', async ({ client, project, recorded }) => {
  await withAttributes({ env: 'example', app: 'helpers' }, async () => {
    await withThread('thread-42', async () => {
      await reply('hello there');
      await reply('thanks, bye');
    });
    await withRun({ runId: 'local/context-helpers/run-1', step: 0 }, async () => {
      for (let step = 0; step < 3; step++) {
        setRunStep(step);
        await rollout(step);
      }
    });
  });
  const [result, call] = await reply.invoke('which call was this?');
  console.log(`invoke -> ${result} (call ${call?.id === undefined ? 'missing' : 'known'}: ${call?.opName})`);
  addFeedback(call, { feedbackType: 'thumbs', payload: { up: true }, creator: 'example-user' });
  await flush();
  const [withFeedback] = await client.calls.streamQuery({ project_id: project, filter: { call_ids: [call!.id] }, include_feedback: true }).toArray();
  for (const f of withFeedback?.summary?.feedback ?? []) console.log(`feedback on ${withFeedback?.op_name}: ${f.feedback_type} ${JSON.stringify(f.payload)} by ${f.creator}`);
  for (const c of await recorded()) {
    console.log(`recorded ${c.op_name} thread=${c.thread_id ?? '-'} turn=${c.turn_id ? (c.turn_id === c.id ? 'own' : 'parent') : '-'} run=${c.svc_run_id ?? '-'} step=${c.svc_run_step ?? '-'} attributes=${JSON.stringify(c.attributes)}`);
  }
});
