// vitest globalSetup: one temp root per test run. Every temp folder a test (or a process it starts:
// the CLI, git, the language server, Neovim) makes via os.tmpdir() lands inside it, because TMPDIR
// is set before the workers start; the root is removed when the run ends, so a run leaves nothing
// in the system temp folder even when a test forgets to clean up after itself.
import { chmodSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let root: string | undefined;
let previous: string | undefined;

export function setup(): void {
  previous = process.env.TMPDIR;
  root = realpathSync(mkdtempSync(join(tmpdir(), 'gitmem-test-run-')));
  // Traversable by others (each folder inside stays 0700 unless a test opens it): the hostile-fs
  // harness runs the CLI as an unprivileged user to make a read-only tree real.
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
}

export function teardown(): void {
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  if (root) rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
