import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['simulator/**/*.test.ts', 'conformance/**/*.test.ts', 'fixtures/**/*.test.ts', 'bin/**/*.test.ts', 'bench/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
