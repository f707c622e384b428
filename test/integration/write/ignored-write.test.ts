// Bad inputs U18, U19 (docs/bad-inputs.md): a write to a path the config's `ignore` covers. remember
// wrote the entry and answered `created`, yet recall, dedupe and checkpoint skip ignored files, so it
// was memory nobody would ever see (and the same text written twice gave two files); complete-task
// failed with `path.not-memory` ("not a memory file in the default layout"), a message that names the
// wrong cause, and when only the playbook folder was ignored its entry was already written and
// committed, so a failed call left half its work behind. Every write now refuses such a path with
// `path.ignored`, naming the glob, before anything is written. One workspace, keyword mode, no model.
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { git, runCli, tempDir, initRepoOnMain } from '../../support/fixtures.js';

let root: string;
let ws: string;
let env: Record<string, string>;
let initial: string;
const TASK = JSON.stringify({
  goal: 'Rotate the staging database password',
  result: 'Rotated the password. PgBouncer keeps the old credentials cached until it is restarted.',
  feedback: 'Never rotate database passwords without restarting PgBouncer afterwards, or connections fail for an hour.',
  agent: 'codex',
});

function config(ignore: string[]): void {
  writeFileSync(join(ws, 'gitmem.config.json'), JSON.stringify({ version: 1, layout: 'default', ignore }));
}
const cli = (...args: string[]) => runCli([...args, '--dir', ws, '--json'], { env, input: TASK });

beforeAll(() => {
  root = tempDir();
  ws = join(root, 'ws');
  mkdirSync(join(ws, 'memory', 'entries'), { recursive: true });
  mkdirSync(join(ws, 'memory', 'playbook'), { recursive: true });
  writeFileSync(join(ws, 'memory', 'MEMORY.md'), '# Memory\n\n- Deploys run from main.\n');
  config([]);
  initRepoOnMain(ws);
  initial = git(ws, 'rev-parse', 'HEAD').trim();
  env = {
    GITMEM_MODEL_DIR: join(root, 'no-model'),
    GITMEM_NO_HOST: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  git(ws, 'reset', '-q', '--hard', initial);
  git(ws, 'clean', '-qfd');
});

const list = (dir: string) => (existsSync(join(ws, dir)) ? readdirSync(join(ws, dir)) : []);
const entries = () => list('memory/entries');
const playbook = () => list('memory/playbook');

describe('writes to a path the config ignores (U18, U19)', { timeout: 60_000 }, () => {
  it('remember refuses with path.ignored naming the glob; nothing is written', () => {
    config(['memory/entries/**']);
    const r = cli('remember', 'Webhook retries back off exponentially, capped at five minutes');
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('path.ignored');
    expect(r.json().error.message).toContain('memory/entries/**');
    expect(r.stderr).toMatch(/hint: .*ignore/);
    expect(entries()).toEqual([]);
  });

  it('append refuses a daily note the config ignores', () => {
    config(['memory/20*.md']);
    const r = cli('append', 'stand-up moved to ten');
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('path.ignored');
    expect(readdirSync(join(ws, 'memory')).filter((f) => /^\d{4}-/.test(f))).toEqual([]);
  });

  it('complete-task with the entries folder ignored refuses before writing', () => {
    config(['memory/entries/**']);
    const r = cli('complete-task', '--input', '-');
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('path.ignored');
    expect(entries()).toEqual([]);
    expect(git(ws, 'rev-parse', 'HEAD').trim()).toBe(initial);
  });

  it('complete-task with only the playbook folder ignored leaves no entry and no commit behind', () => {
    config(['memory/playbook/**']);
    const r = cli('complete-task', '--input', '-');
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('path.ignored');
    expect(r.json().error.message).toContain('memory/playbook/**');
    expect(entries()).toEqual([]);
    expect(playbook()).toEqual([]);
    expect(git(ws, 'rev-parse', 'HEAD').trim()).toBe(initial);
    expect(git(ws, 'status', '--porcelain', '--', 'memory')).toBe('');
  });

  it('without the ignore glob the same task writes its entry and playbook entry', () => {
    config([]);
    const r = cli('complete-task', '--input', '-');
    expect(r.code).toBe(0);
    expect(r.json().status).toBe('created');
    expect(existsSync(join(ws, r.json().path))).toBe(true);
    expect(playbook().length).toBeGreaterThan(0);
  });
});
