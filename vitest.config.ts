// Test runner config: every test talks to a real local server over loopback HTTP.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // fails the run when a process a test spawned (test/helpers/child-processes.ts) outlives the suite
    globalSetup: ['test/helpers/global-setup.ts'],
  },
});
