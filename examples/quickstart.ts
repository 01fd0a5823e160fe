// Quickstart (`npm run demo`): traces a small retrieval QA workload, then reads the traces back and prints them as trees.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flush, init, shutdown } from '../packages/weft-trace/src/index.js';
import { renderTrees } from '../packages/weft-server/src/cli/trace-tree.js';
import { readTraces } from './read-traces.js';
import { createAnswerer, type Answer } from './rag/answer.js';
import { defaultCorpusPaths } from './rag/load.js';
import { prepareIndex } from './rag/prepare.js';
import { connectViewerServer } from './viewer-server.js';
import { traceLinks } from './trace-links.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROJECT = process.env['WEFT_PROJECT'] ?? 'local/quickstart';

/** Three questions the repository's docs answer, and one they cannot (its retrieval fails and is caught). */
const QUESTIONS = [
  'How does op() record an exception thrown by a traced function?',
  'Which port does the local weft server listen on by default?',
  'What happens to a sync function wrapped with op?',
  'What is the airspeed velocity of an unladen swallow?',
];

/** `1 chunk`, `2 chunks`. */
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

function printAnswer(answer: Answer): void {
  console.log(`Q: ${answer.question}`);
  if (answer.answer === null) console.log(`A: (no answer: ${answer.error ?? 'nothing relevant found'})`);
  else console.log(`A: ${answer.answer}\n   [${answer.sources.join(', ')}]`);
  console.log();
}

async function main(): Promise<void> {
  const server = await connectViewerServer();
  try {
    console.log(`weft quickstart — traces to ${server.url} (${server.where}), project ${PROJECT}\n`);
    const client = await init({ project: PROJECT, baseUrl: server.url });
    const sinceMs = Date.now();

    const args = process.argv.slice(2);
    const root = args.length > 0 ? process.cwd() : REPO_ROOT;
    const paths = args.length > 0 ? args.map((file) => resolve(file)) : await defaultCorpusPaths(REPO_ROOT);
    const index = await prepareIndex(paths, root);
    const files = new Set(index.chunks.map((chunk) => chunk.source)).size;
    console.log(`Indexed ${count(index.chunks.length, 'chunk')} from ${count(files, 'file')} (${count(index.vocabulary, 'distinct term')}).\n`);

    const { answerQuestion } = createAnswerer(index);
    const answers = await Promise.all(QUESTIONS.map((question) => answerQuestion(question)));
    answers.forEach(printAnswer);

    const report = await flush();
    if (report.dropped > 0 || report.pending > 0) {
      console.warn(`warning: ${report.dropped} events dropped and ${report.pending} unsent; the trees may be incomplete`);
    }
    const calls = await readTraces(client, PROJECT, sinceMs);
    console.log(`Traces (✓ success, ✗ error; durations in ms):\n`);
    console.log(renderTrees(calls));
    console.log(traceLinks(calls, server.viewerUrl, PROJECT, server.dbPath));
  } finally {
    await shutdown();
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
