// Evaluations (`npx tsx examples/eval-rag.ts`): the demo's BM25 retrieval scored on questions about this repository's Markdown with expected sources, two retrieval settings compared.
import { fileURLToPath } from 'node:url';
import { Dataset, evaluate, init, type EvaluationResult } from '../packages/weft-trace/src/index.js';
import { compareRuns } from '../packages/weft-trace/src/eval/runs/compare.js';
import { loadRun } from '../packages/weft-trace/src/eval/runs/load-runs.js';
import { runWithServer, type DemoServer } from './local-server.js';
import { chunkDocuments } from './rag/chunk.js';
import { buildIndex, scoreChunks, type SearchIndex } from './rag/index.js';
import { defaultCorpusPaths, loadCorpus } from './rag/load.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROJECT = process.env['WEFT_PROJECT'] ?? 'local/eval-rag';

/** Questions the repository's notes and docs answer, each with the files that answer it. */
const QUESTIONS = [
  { question: 'Which port does the local weft server listen on by default?', expected: ['examples/notes/local-server.md'] },
  { question: 'How do I wait until every queued event has been acknowledged by the server?', expected: ['examples/notes/local-server.md'] },
  { question: 'Does a sync function wrapped with op stay sync or return a promise?', expected: ['examples/notes/tracing.md'] },
  { question: 'What does op record when a traced function throws, and is the exception rethrown?', expected: ['examples/notes/tracing.md'] },
  { question: 'Which ids match a filter when written with or without dashes?', expected: ['docs/interface-notes.md'] },
  { question: 'How is the digest of a table row computed?', expected: ['docs/interface-notes.md', 'docs/server.md'] },
  { question: 'Which file holds the precedence table of OTel span attributes?', expected: ['docs/ARCHITECTURE.md'] },
  { question: 'Where do call events go when memory is full or the service is away (the spool)?', expected: ['docs/ARCHITECTURE.md', 'docs/tracing.md'] },
];
type Row = (typeof QUESTIONS)[number];

/** A retrieval setting: passage size in words and how many passages are kept. */
interface Setting {
  name: string;
  chunkWords: number;
  topK: number;
}
const SETTINGS: Setting[] = [
  { name: 'bm25-300w-top1', chunkWords: 300, topK: 1 },
  { name: 'bm25-80w-top3', chunkWords: 80, topK: 3 },
];

/** Scores the sources retrieved: `hit` (an expected file among them) and `reciprocal_rank` (1 / rank of the first). */
function retrieval({ output, expected }: { output: string[]; expected: string[] }) {
  const rank = output.findIndex((source) => expected.includes(source));
  return { hit: rank >= 0, reciprocal_rank: rank >= 0 ? 1 / (rank + 1) : 0 };
}

async function run(setting: Setting, index: SearchIndex, dataset: Dataset<Row>, client: ReturnType<typeof init>): Promise<EvaluationResult<Row, string[]>> {
  // the task: the files of the best passages, best first (a file once)
  const retrieve = function retrieve(row: Row): string[] {
    const sources = scoreChunks(index, row.question).map((s) => s.chunk.source);
    return [...new Set(sources)].slice(0, setting.topK);
  };
  return evaluate({ name: setting.name, client, dataset, task: retrieve, scorers: [retrieval], metadata: { ...setting } });
}

async function main(server: DemoServer): Promise<void> {
  const client = init({ project: PROJECT, baseUrl: server.url });
  console.log(`weft evaluation example: traces to ${server.url}, project ${PROJECT}\n`);
  const docs = await loadCorpus(await defaultCorpusPaths(REPO_ROOT), REPO_ROOT);
  const dataset = new Dataset<Row>({ name: 'repo-questions', rows: QUESTIONS, description: 'questions about this repository, with the files that answer them' });
  const runs: Array<EvaluationResult<Row, string[]>> = [];
  for (const setting of SETTINGS) {
    const index = buildIndex(chunkDocuments(docs, setting.chunkWords));
    const result = await run(setting, index, dataset, client);
    runs.push(result);
    const s = result.summary.scores;
    console.log(`${setting.name}: hit rate ${s['retrieval.hit']?.mean?.toFixed(2)}, MRR ${s['retrieval.reciprocal_rank']?.mean?.toFixed(2)}, ${result.summary.rows} rows, run ${result.id}`);
  }
  // the same comparison `weft eval compare` prints, read back from the server
  const loaded = await Promise.all(runs.map((r) => loadRun(client, PROJECT, r.id)));
  const cmp = compareRuns(loaded.map((l) => l!.run), loaded.map((l) => l!.rows));
  console.log('\nscore deltas (candidate − base):');
  for (const s of cmp.scores) console.log(`  ${s.score}: ${s.means[0]?.toFixed(2)} → ${s.means[1]?.toFixed(2)} (${(s.deltas[1] ?? 0) >= 0 ? '+' : ''}${s.deltas[1]?.toFixed(2)})`);
  const counts = (['regressed', 'improved', 'changed', 'same'] as const).map((c) => `${cmp.rows.filter((r) => r.change === c).length} ${c}`);
  console.log(`rows: ${counts.join(', ')}`);
  console.log(`\ncompare in a terminal: weft eval compare ${runs[0]!.id} ${runs[1]!.id} --project ${PROJECT} --fail-on-regression retrieval.hit`);
  if (!server.startedHere) console.log(`or in the viewer: ${server.url}/#/p/${encodeURIComponent(PROJECT)}/evaluations/${runs[0]!.id},${runs[1]!.id}`);
}

await runWithServer(main);
