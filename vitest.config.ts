// Test runner config: every test talks to a real local server over loopback HTTP. Two projects: `sqlite` runs
// every test file on SQLite; `postgres` runs the server test files listed below again, each server on a fresh
// PostgreSQL database (test/helpers/server.ts) of a throwaway cluster (test/helpers/pg-global-setup.ts).
// One store only: `npx vitest run --project sqlite` (or `--project postgres`).
import { defineConfig } from 'vitest/config';

/** Test files that run on both stores (the parameterization: same files, `WEFT_TEST_STORE=postgres`). */
const BOTH_STORES = [
  'test/server/db/pg-*.test.ts',
  'test/server/calls/*.test.ts',
  'test/server/http/*.test.ts',
  'test/otel/otlp-ingest.test.ts',
  // the OTel exporter, Weave SDK and CLI tests that talk to a server (serve-open only checks --open, on :memory:)
  'test/otel/otel-context.test.ts',
  'test/otel/span-processor.test.ts',
  'test/weave/weave-sdk.test.ts',
  'test/cli/calls-commands.test.ts',
  'test/server/feedback/*.test.ts',
  'test/server/tables/*.test.ts',
  'test/server/training/*.test.ts',
  'test/weave/weave-endpoints.test.ts',
  'test/export/*.test.ts',
  'test/api/**/*.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // fails the run when a process a test spawned (test/helpers/child-processes.ts) outlives the suite
    globalSetup: ['test/helpers/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['test/server/db/pg-*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: BOTH_STORES,
          env: { WEFT_TEST_STORE: 'postgres' },
          globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/pg-global-setup.ts'],
        },
      },
    ],
  },
});
