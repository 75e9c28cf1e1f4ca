// Test runner settings. Most of the suite waits (child processes starting, servers answering, the
// kit's stream and webhook checks), so it runs more files at once than there are cores: vitest's
// default on a two-core machine is one worker, which ran the whole suite in series.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    maxWorkers: availableParallelism() + 1,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
