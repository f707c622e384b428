// vitest globalSetup: one temp root per test run. Every temp folder a test (or a process it starts:
// the CLI, git, the language server, Neovim) makes via os.tmpdir() lands inside it, because TMPDIR
// is set before the workers start; the root is removed when the run ends, so a run leaves nothing
// in the system temp folder even when a test forgets to clean up after itself.
// The run's git identity is its own too (docs/bad-inputs.md R28): git and gitmem read a global config
// of this root (GIT_CONFIG_GLOBAL, `user.name` and `user.email` only) instead of the machine's
// ~/.gitconfig, and no system config (GIT_CONFIG_NOSYSTEM). A test that sets an identity (env,
// `-c user.name=…`, a repository's config) still wins, as those come before the global file; a
// machine without `user.name` passes the same tests as one with it.
import { chmodSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let root: string | undefined;
let previous: string | undefined;
/** The variables {@link setup} sets, with the values they had before it. */
const saved = new Map<string, string | undefined>();

function setEnv(name: string, value: string): void {
  saved.set(name, process.env[name]);
  process.env[name] = value;
}

export function setup(): void {
  previous = process.env.TMPDIR;
  root = realpathSync(mkdtempSync(join(tmpdir(), 'gitmem-test-run-')));
  // Traversable by others (each folder inside stays 0700 unless a test opens it): the hostile-fs
  // harness runs the CLI as an unprivileged user to make a read-only tree real.
  chmodSync(root, 0o755);
  process.env.TMPDIR = root;
  const gitconfig = join(root, 'gitconfig');
  writeFileSync(gitconfig, '[user]\n\tname = gitmem test\n\temail = test@example.com\n');
  setEnv('GIT_CONFIG_GLOBAL', gitconfig);
  setEnv('GIT_CONFIG_NOSYSTEM', '1');
}

export function teardown(): void {
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  saved.clear();
  if (root) rmSync(root, { recursive: true, force: true, maxRetries: 3 });
}
