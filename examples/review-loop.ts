// From trace to fix (`npx tsx examples/review-loop.ts`): trace an app's answers, review them in a queue, keep the
// reviewed calls as a dataset with the wrong answer corrected, and evaluate the fixed app over that dataset by name.
import { evaluate, exactMatch, flush, init, op } from '../packages/weft-trace/src/index.js';
import { runWithServer } from './local-server.js';

const PROJECT = process.env['WEFT_PROJECT'] ?? 'local/review-loop';
const QUEUE = 'capitals-triage';
const DATASET = 'capitals-golden';
const REVIEWER = 'ada';
const QUESTIONS = ['France', 'Japan', 'Peru', 'Kenya'].map((country) => `What is the capital of ${country}?`);
/** What the reviewer knows to be right (the app's last release has Peru wrong). */
const TRUTH: Record<string, string> = { France: 'Paris', Japan: 'Tokyo', Peru: 'Lima', Kenya: 'Nairobi' };

const countryOf = (question: string): string => /capital of (\w+)/.exec(question)?.[1] ?? '';

/** The app as it shipped: a stand-in for a model call, deterministic, wrong about Peru. */
const answer = op(function answer(question: string): string {
  const country = countryOf(question);
  return country === 'Peru' ? 'Cusco' : (TRUTH[country] ?? 'unknown');
});

/** The app after the fix the review pointed at. */
const answerFixed = op(function answerFixed(question: string): string {
  return TRUTH[countryOf(question)] ?? 'unknown';
});

/** POSTs a review route of weft's local server (`/weft/annotation_fields/*`, `/weft/queues/*`); throws on an error status. */
async function post<T>(baseUrl: string, path: string, body: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: PROJECT, ...body }) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

interface Item { id: string; call_id: string }
interface Field { ref: string }

async function main(url: string, startedHere: boolean): Promise<void> {
  const client = init({ project: PROJECT, baseUrl: url });
  console.log(`review loop: project ${PROJECT} at ${url}`);

  // 1. trace: the app answers a few questions
  const outputs = new Map<string, { question: string; output: string }>();
  for (const question of QUESTIONS) {
    const [output, call] = await answer.invoke(question);
    outputs.set(call!.id, { question, output });
    console.log(`traced answer(${JSON.stringify(question)}) → ${output}`);
  }
  await flush();

  // 2. queue: two annotation fields, a queue asking them, the calls as its items
  const thumbs = await post<Field>(url, '/weft/annotation_fields/create', { name: 'correct', type: 'thumbs', description: 'Is the answer right?' });
  const quality = await post<Field>(url, '/weft/annotation_fields/create', { name: 'quality', type: 'score', min: 1, max: 5, step: 1, description: '1 wrong, 5 right and to the point' });
  await post(url, '/weft/queues/create', { name: QUEUE, instructions: 'Check each capital.', fields: [thumbs.ref, quality.ref] });
  const { added } = await post<{ added: number }>(url, '/weft/queues/add', { queue_id: QUEUE, items: [...outputs.keys()].map((call_id) => ({ call_id })) });
  console.log(`queue ${QUEUE}: ${added} items, fields correct (thumbs) and quality (score 1-5)`);

  // 3. review: take the next item, answer it, until the queue is empty
  for (;;) {
    const { item } = await post<{ item: Item | null }>(url, '/weft/queues/next', { queue_id: QUEUE, reviewer: REVIEWER });
    if (!item) break;
    const seen = outputs.get(item.call_id)!;
    const right = seen.output === TRUTH[countryOf(seen.question)];
    await post(url, '/weft/queues/answer', { queue_id: QUEUE, item_id: item.id, reviewer: REVIEWER, answers: [{ field_ref: thumbs.ref, value: right }, { field_ref: quality.ref, value: right ? 5 : 1 }] });
    console.log(`reviewed ${seen.question} ${seen.output}: ${right ? 'thumbs up' : 'thumbs down'}`);
  }
  const { progress } = await post<{ progress: { total: number; done: number } }>(url, '/weft/queues/read', { queue_id: QUEUE });
  console.log(`queue ${QUEUE}: ${progress.done} of ${progress.total} reviewed`);

  // 4. dataset: the reviewed calls, the thumbs-down ones with the right answer as expected output
  const { answers } = await post<{ answers: Array<{ call_id: string; feedback_type: string; payload: { value: unknown } }> }>(url, '/weft/queues/answers', { queue_id: QUEUE });
  const down = new Set(answers.filter((a) => a.feedback_type === 'wandb.annotation.correct' && a.payload.value === false).map((a) => a.call_id));
  const calls = [...outputs].map(([id, seen]) => (down.has(id) ? { id, expected: TRUTH[countryOf(seen.question)] } : { id }));
  const version = await client.datasets.addCalls({ project_id: PROJECT, dataset: DATASET, calls });
  console.log(`dataset ${DATASET} v${version.version_index}: ${version.rows} rows, ${down.size} corrected`);

  // 5. evaluate: the app as shipped and the fix, over the dataset by name
  type Row = { input: { question: string }; expected: string };
  for (const task of [answer, answerFixed]) {
    const run = await evaluate<Row, string>({ name: `${DATASET}-${task.name}`, dataset: DATASET, task: (row) => task(row.input.question), scorers: [exactMatch()] });
    console.log(`evaluate ${task.name} over ${DATASET}: exact_match ${run.summary.scores['exact_match']?.mean?.toFixed(2)} (run ${run.id})`);
  }

  const p = encodeURIComponent(PROJECT);
  console.log(`${startedHere ? 'with WEFT_BASE_URL set to a running weft serve, ' : ''}in the viewer:`);
  console.log(`  queue:   ${url}/#/p/${p}/queues/${QUEUE}`);
  console.log(`  dataset: ${url}/#/p/${p}/datasets/${DATASET}`);
}

await runWithServer((server) => main(server.url, server.startedHere));
