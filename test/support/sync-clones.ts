// Two clones of one bare remote for the `gitmem sync` tests: Ann's `a` (gitmem init, keyword only, one
// commit pushed) and Ben's `b` (cloned from the remote), real git in temp folders. Built once per
// test file and kind (a dozen git runs and two CLI runs), then copied for each test with the remotes
// re-pointed at the copy. `rules: false` gives clones whose team never had gitmem's merge rules: no
// `.gitattributes` block and no registered merge driver. Also the two helpers every sync test calls:
// `sync` (the CLI's `sync --json`) and `ok` (a run that must exit 0).
import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import { git, okOutput, runCli, tempDir, type CliRun, write } from './fixtures.js';

export interface SyncClones {
  /** The folder holding the three (remove it after the test). */
  readonly base: string;
  readonly remote: string;
  readonly a: string;
  readonly b: string;
}

const templates = new Map<string, string>();

/** Remove the templates built by {@link freshClones}. */
function removeSyncTemplates(): void {
  for (const t of templates.values()) rmSync(t, { recursive: true, force: true });
  templates.clear();
}

/**
 * A test file's source of clones (call once at its top level): each call of the function it returns
 * is a fresh copy of the two clones and their bare remote, removed after its test; the templates are
 * removed after the file. With `rules` (the default) Ann ran `init --merge-driver` and Ben
 * `doctor --fix`, so both have the merge rules and the driver.
 */
export function useSyncClones(): (options?: { rules?: boolean }) => SyncClones {
  const made: string[] = [];
  afterEach(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  afterAll(removeSyncTemplates);
  return (options = {}) => {
    const c = freshClones(options);
    made.push(c.base);
    return c;
  };
}

/**
 * Turn the model on again in each clone `dirs` (they are made keyword only): the tests of the rule by
 * meaning. The config is not memory, so nothing is committed.
 */
export function modelOn(...dirs: string[]): void {
  for (const dir of dirs) {
    const config = JSON.parse(readFileSync(join(dir, 'gitmem.config.json'), 'utf8'));
    delete config.model;
    write(dir, 'gitmem.config.json', `${JSON.stringify(config, null, 2)}\n`);
  }
}

/**
 * The start of the tests of sync's rule by meaning: the model on in both clones, `text` remembered as
 * a decision in Ann's clone and synced to Ben's. `cli` runs `gitmem <args> --json --dir <dir>` with `env`.
 * @returns the runner and Ann's `remember --json` output.
 */
export function decisionSharedByAnn(
  { a, b }: SyncClones,
  env: Record<string, string>,
  text: string,
): { cli: (dir: string, ...args: string[]) => CliRun; mine: any } {
  const cli = (dir: string, ...args: string[]) => runCli([...args, '--json', '--dir', dir], { env });
  modelOn(a, b);
  const mine = okOutput(cli(a, 'remember', text, '--type', 'decision'));
  okOutput(cli(a, 'sync'));
  okOutput(cli(b, 'sync'));
  return { cli, mine };
}

/** `gitmem sync --json` in `dir`, `extra` arguments after. */
export const sync = (dir: string, ...extra: string[]): CliRun => runCli(['sync', '--json', '--dir', dir, ...extra]);

/** `r`, once it is known to have exited 0 (its stderr and stdout are the failure message). */
export function ok(r: CliRun): CliRun {
  expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
  return r;
}

function freshClones(options: { rules?: boolean }): SyncClones {
  const rules = options.rules !== false;
  const key = rules ? 'rules' : 'no-rules';
  let template = templates.get(key);
  if (!template) {
    template = buildClones(tempDir('gitmem-sync-template-'), rules);
    templates.set(key, template);
  }
  const base = tempDir('gitmem-sync-');
  cpSync(template, base, { recursive: true, verbatimSymlinks: true });
  const remote = join(base, 'remote.git');
  const a = join(base, 'a');
  const b = join(base, 'b');
  git(a, 'remote', 'set-url', 'origin', remote);
  git(b, 'remote', 'set-url', 'origin', remote);
  return { base, remote, a, b };
}

function buildClones(base: string, rules: boolean): string {
  const remote = join(base, 'remote.git');
  git(base, 'init', '-q', '--bare', '-b', 'main', remote);
  const a = join(base, 'a');
  mkdirSync(a);
  git(a, 'init', '-q', '-b', 'main');
  git(a, 'config', 'user.name', 'Ann');
  git(a, 'config', 'user.email', 'ann@example.com');
  expect(runCli(['init', ...(rules ? ['--merge-driver'] : []), '--dir', a]).code).toBe(0);
  if (!rules) rmSync(join(a, '.gitattributes'));
  // Keyword only: git sync is the subject here, not the embedding (remember and the re-index after a
  // merge would otherwise load the model in every CLI run).
  const config = JSON.parse(readFileSync(join(a, 'gitmem.config.json'), 'utf8'));
  write(a, 'gitmem.config.json', `${JSON.stringify({ ...config, model: { enabled: false } }, null, 2)}\n`);
  write(a, 'app.js', 'export const version = 1;\n');
  git(a, 'add', '-A');
  git(a, 'commit', '-qm', 'initial');
  git(a, 'remote', 'add', 'origin', remote);
  git(a, 'push', '-q', '-u', 'origin', 'main');
  const b = join(base, 'b');
  git(base, 'clone', '-q', remote, b);
  git(b, 'config', 'user.name', 'Ben');
  git(b, 'config', 'user.email', 'ben@example.com');
  if (rules) expect(runCli(['doctor', '--fix', '--dir', b]).code).toBe(0);
  return base;
}
