// vitest globalSetup: one temp root per test run. Every temp folder a test (or a process it starts:
// the CLI, git, the language server, Neovim) makes via os.tmpdir() lands inside it, because TMPDIR
// is set before the workers start; the root is removed when the run ends, so a run leaves nothing
// in the system temp folder even when a test forgets to clean up after itself.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let root: string | undefined;
let previous: string | undefined;

export function setup(): void {
  previous = process.env.TMPDIR;
  root = realpathSync(mkdtempSync(join(tmpdir(), 'gitmem-test-run-')));
  process.env.TMPDIR = root;
}

export function teardown(): void {
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  if (root) rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
