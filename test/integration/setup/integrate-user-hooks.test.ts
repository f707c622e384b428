// `gitmem integrate claude-code --user`: the hooks go into the person's ~/.claude/settings.json, so
// Claude Code runs them in every project it opens, most of which hold no gitmem memory. Each hook is
// run as Claude Code runs it (`sh -c <command>`, its JSON payload on stdin) in a folder outside any git
// work tree and in a git repository without memory: it must exit 0, print nothing and write nothing
// there (R111); in the project holding memory it still works. Hooks an earlier gitmem wrote without
// `--if-workspace` are brought up to date by a second run, not doubled.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, runCli, tempDir } from '../../support/fixtures.js';
import { useDemoProjects } from '../../support/demo-project.js';

const { projectWithGitmemOnPath, removeAfter } = useDemoProjects();

/** A project holding the demo memory, a home folder, and a bin folder whose `gitmem` is this build. */
function setup(): { root: string; home: string; env: Record<string, string> } {
  const { root, env } = projectWithGitmemOnPath();
  const home = join(dirname(root), 'home');
  mkdirSync(home);
  return { root, home, env: { ...env, HOME: home } };
}

type Groups = Record<string, { hooks: { type: string; command: string }[] }[]>;
const hooksIn = (home: string): Groups =>
  (JSON.parse(readFileSync(join(home, '.claude/settings.json'), 'utf8')) as { hooks?: Groups }).hooks ?? {};

/** Run a hook command as Claude Code does: through the shell, in `cwd`, its payload on stdin. */
function runHook(command: string, event: string, cwd: string, env: Record<string, string>) {
  const payload = { session_id: 's1', cwd, hook_event_name: event, prompt: 'which database do we use?' };
  const r = spawnSync('sh', ['-c', command], {
    cwd,
    env: { ...process.env, ...env },
    input: JSON.stringify(payload),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreCompact', 'SessionEnd'];

describe('integrate claude-code --user: hooks run in every project', () => {
  it('outside a workspace each hook exits 0, says nothing and writes nothing; in the project it works (R111)', () => {
    const { root, home, env } = setup();
    const r = runCli(['integrate', 'claude-code', '--user'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const hooks = hooksIn(home);
    expect(Object.keys(hooks).sort()).toEqual([...EVENTS].sort());

    const plain = tempDir('gitmem-nomem-'); // no git work tree, no memory
    const repo = tempDir('gitmem-nomem-repo-'); // someone's code repository without gitmem
    removeAfter(plain);
    removeAfter(repo);
    git(repo, 'init', '-q');
    writeFileSync(join(repo, 'main.c'), 'int main(void) { return 0; }\n');
    git(repo, 'add', 'main.c');
    git(repo, 'commit', '-q', '-m', 'code');
    for (const event of EVENTS) {
      const [group] = hooks[event]!;
      const command = group!.hooks[0]!.command;
      for (const cwd of [plain, repo]) {
        const h = runHook(command, event, cwd, env);
        expect({ event, cwd, code: h.code, stdout: h.stdout, stderr: h.stderr }).toEqual({
          event,
          cwd,
          code: 0,
          stdout: '',
          stderr: '',
        });
      }
    }
    expect(readdirSync(plain)).toEqual([]);
    expect(readdirSync(repo).sort()).toEqual(['.git', 'main.c']);
    expect(git(repo, 'status', '--porcelain').trim()).toBe('');
    expect(git(repo, 'rev-list', '--count', 'HEAD').trim()).toBe('1');

    // in the project holding memory the session-start hook still prints the working state
    const start = runHook(hooks.SessionStart![0]!.hooks[0]!.command, 'SessionStart', root, env);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toContain('CURRENT_STATE');
  });

  it('hooks an earlier gitmem wrote without --if-workspace are replaced, not doubled; --remove restores or takes them out', () => {
    const { root, home, env } = setup();
    const earlier = {
      SessionStart: 'gitmem state snapshot',
      UserPromptSubmit: 'gitmem hook prompt',
      PreCompact: "gitmem state set --commit -m 'state: before compaction' >/dev/null",
      SessionEnd: "gitmem checkpoint -m 'memory: end of session' >/dev/null",
    };
    const mine = { hooks: [{ type: 'command', command: 'echo mine' }] };
    const hooks = Object.fromEntries(
      Object.entries(earlier).map(([e, command]) => [e, [mine, { hooks: [{ type: 'command', command }] }]]),
    );
    mkdirSync(join(home, '.claude'));
    const before = `${JSON.stringify({ hooks }, null, 2)}\n`;
    writeFileSync(join(home, '.claude/settings.json'), before);

    expect(runCli(['integrate', 'claude-code', '--user'], { cwd: root, env }).code).toBe(0);
    const now = hooksIn(home);
    for (const event of EVENTS) {
      const commands = now[event]!.map((g) => g.hooks[0]!.command);
      expect(commands).toEqual([
        'echo mine',
        earlier[event as keyof typeof earlier].replace(/^gitmem /, 'gitmem --if-workspace '),
      ]);
    }
    // --remove puts the file back as it was before the run (as for an earlier MCP registration, R70)
    expect(runCli(['integrate', 'claude-code', '--user', '--remove'], { cwd: root, env }).code).toBe(0);
    expect(readFileSync(join(home, '.claude/settings.json'), 'utf8')).toBe(before);
    // a person's edit since the run: --remove takes out gitmem's hooks, and the earlier ones with them
    expect(runCli(['integrate', 'claude-code', '--user'], { cwd: root, env }).code).toBe(0);
    writeFileSync(
      join(home, '.claude/settings.json'),
      `${readFileSync(join(home, '.claude/settings.json'), 'utf8')}\n`,
    );
    expect(runCli(['integrate', 'claude-code', '--user', '--remove'], { cwd: root, env }).code).toBe(0);
    const left = hooksIn(home);
    for (const event of EVENTS) expect(left[event]!.map((g) => g.hooks[0]!.command)).toEqual(['echo mine']);
  });
});
