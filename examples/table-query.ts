// Table query: stores an evaluation set as a table, then reads it back sorted, paged and filtered by row digest.
import { runWithClient } from './run-client.js';

const PROJECT = process.env['WEFT_PROJECT'] ?? 'local/table-query';

/** An evaluation set: questions, the expected answer, and a model's score on each. */
const ROWS = [
  { question: 'Capital of France?', expected: 'Paris', result: { score: 1.0, latency_ms: 420 } },
  { question: 'Largest planet?', expected: 'Jupiter', result: { score: 0.5, latency_ms: 610 } },
  { question: '2 + 2 * 3?', expected: '8', result: { score: 0.0, latency_ms: 380 } },
  { question: 'Author of Dune?', expected: 'Frank Herbert', result: { score: 1.0, latency_ms: 515 } },
  { question: 'Boiling point of water at sea level, in °C?', expected: '100', result: { score: 0.75, latency_ms: 290 } },
];

type Row = (typeof ROWS)[number];

function line(r: { original_index?: number; val: unknown; digest: string }): string {
  const row = r.val as Row;
  return `  #${r.original_index} ${row.result.score.toFixed(2)}  ${row.question}  (${r.digest.slice(0, 8)}…)`;
}

runWithClient(async (client, server) => {
  console.log(`weft table query — ${server.url}, project ${PROJECT}\n`);
  const table = await client.tables.create({ project_id: PROJECT, rows: ROWS });
  console.log(`Created table ${table.digest} with ${table.row_digests.length} rows.\n`);

  const all = await client.tables.query({ project_id: PROJECT, digest: table.digest });
  console.log('Insertion order:');
  all.rows.forEach((r) => console.log(line(r)));

  const best = await client.tables.query({
    project_id: PROJECT,
    digest: table.digest,
    sort_by: [{ field: 'result.score', order: 'desc' }, { field: 'result.latency_ms', order: 'asc' }],
    limit: 3,
  });
  console.log('\nTop 3 by result.score desc, then result.latency_ms asc:');
  best.rows.forEach((r) => console.log(line(r)));

  console.log('\nPages of 2 (limit 2, offset 0, 2, 4):');
  for (let offset = 0; ; offset += 2) {
    const page = await client.tables.query({ project_id: PROJECT, digest: table.digest, limit: 2, offset });
    if (page.rows.length === 0) break;
    console.log(`  page ${offset / 2 + 1}: ${page.rows.map((r) => `#${r.original_index}`).join(' ')}`);
  }

  const failed = all.rows.filter((r) => (r.val as Row).result.score === 0).map((r) => r.digest);
  const picked = await client.tables.query({ project_id: PROJECT, digest: table.digest, filter: { row_digests: failed } });
  console.log(`\nRows picked by digest (score 0): ${picked.rows.length}`);
  picked.rows.forEach((r) => console.log(line(r)));
});
