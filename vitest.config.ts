import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Room for two files at once on two cores: a timeout catches a hang, it is not a speed target.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // At least two test files at a time, even on two cores (vitest's default there is one): most
    // tests wait on a child process (the CLI, git, the language server), so a second worker fills
    // the core the first leaves idle. Files share nothing but the temp root below (each test makes
    // its own folders in it) and read-only inputs (dist/, models/, fixtures/).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // One temp root per run (TMPDIR), removed at the end: no gitmem-* folders are left behind.
    globalSetup: ['test/support/temp-root.ts'],
    // A developer's shell may turn on host auto-start (cli/host-autostart.ts): the tests' CLI calls
    // must not leave detached hosts behind; the test of it sets the variable per call.
    env: { GITMEM_HOST_AUTOSTART: '' },
  },
});
