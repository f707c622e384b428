// A project repository holding the demo memory, committed, for tests that run the built CLI in it
// (`integrate`, `export`): each in its own temp folder, removed after the test. Call
// useDemoProjects() at the top of a test file: it registers the build check and the clean-up.
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll } from 'vitest';
import { CLI, committedFixture, noModelEnv, requireBuiltCli } from './fixtures.js';

/** The git identity these tests commit with (never the machine's). */
export const TEST_IDENTITY = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

export interface DemoProjects {
  /** A new project: `root` (the repository) and an environment with no model and no host. */
  project(): { root: string; env: Record<string, string> };
  /**
   * A new project whose PATH finds `gitmem` as this build (a shell script in a bin folder beside
   * `root`), as a host starting the registered command does; no model, no host, TEST_IDENTITY.
   */
  projectWithGitmemOnPath(): { root: string; env: Record<string, string> };
  /** Remove `dir` (recursively) after the current test. */
  removeAfter(dir: string): void;
}

/** Registers `beforeAll(requireBuiltCli)` and the clean-up; @returns the project makers. */
export function useDemoProjects(): DemoProjects {
  const made: string[] = [];
  beforeAll(() => requireBuiltCli());
  afterEach(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const fresh = (): string => {
    const root = committedFixture('demo');
    made.push(dirname(root));
    return root;
  };
  return {
    project() {
      const root = fresh();
      return { root, env: noModelEnv(root) };
    },
    projectWithGitmemOnPath() {
      const root = fresh();
      const bin = join(dirname(root), 'bin');
      mkdirSync(bin);
      writeFileSync(join(bin, 'gitmem'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
      chmodSync(join(bin, 'gitmem'), 0o755);
      const env = {
        PATH: `${bin}:${process.env.PATH}`,
        GITMEM_NO_HOST: '1',
        GITMEM_MODEL_DIR: join(dirname(root), 'no-model'),
        ...TEST_IDENTITY,
      };
      return { root, env };
    },
    removeAfter: (dir) => void made.push(dir),
  };
}
