import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One temp root per run (TMPDIR), removed at the end: no gitmem-* folders are left behind.
    globalSetup: ['test/support/temp-root.ts'],
  },
});
