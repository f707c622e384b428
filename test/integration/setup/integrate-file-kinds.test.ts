// `gitmem integrate` on host files as people keep them: a read-only file (refused, nothing written:
// R73), a 0600 settings file (stays 0600: R73), a config that is a symbolic link (the file it points to
// is edited and the link stays; a link out of the project is refused: R74), and the Cursor rule's
// front-matter read back with a YAML parser (R72). Real git repository, the CLI as a process.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, write } from '../../support/fixtures.js';
import { useDemoProjects } from '../../support/demo-project.js';

const { project, removeAfter } = useDemoProjects();

const read = (root: string, p: string) => readFileSync(join(root, p), 'utf8');

describe('gitmem integrate on host files as people keep them', () => {
  it('a read-only host file is refused with its name, exit 1, and no file of the run is written (R73)', () => {
    const { root, env } = project();
    const mine = '{\n  "mcpServers": { "other": { "command": "other" } }\n}\n';
    write(root, '.mcp.json', mine);
    chmodSync(join(root, '.mcp.json'), 0o444);
    const r = runCli(['integrate', 'claude-code'], { cwd: root, env });
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toContain('.mcp.json is read-only; nothing written');
    expect(read(root, '.mcp.json')).toBe(mine);
    expect(statSync(join(root, '.mcp.json')).mode & 0o777).toBe(0o444);
    for (const f of ['.claude/settings.json', 'CLAUDE.md']) expect(() => statSync(join(root, f)), f).toThrow();
    // the same file already as gitmem wants it: nothing to write, so no refusal
    chmodSync(join(root, '.mcp.json'), 0o644);
    expect(runCli(['integrate', 'claude-code'], { cwd: root, env }).code).toBe(0);
    chmodSync(join(root, '.mcp.json'), 0o444);
    const again = runCli(['integrate', 'claude-code', '--json'], { cwd: root, env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.json().files.map((f: { action: string }) => f.action)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
  });

  it('a 0600 settings file keeps its permission bits through add and remove (R73)', () => {
    const { root, env } = project();
    write(root, '.gemini/settings.json', '{\n  "apiKeyEnv": "MY_KEY"\n}\n');
    chmodSync(join(root, '.gemini/settings.json'), 0o600);
    expect(runCli(['integrate', 'gemini'], { cwd: root, env }).code).toBe(0);
    expect(parseJsonc(read(root, '.gemini/settings.json')).mcpServers.gitmem.command).toBe('gitmem');
    expect(statSync(join(root, '.gemini/settings.json')).mode & 0o777).toBe(0o600);
    write(root, '.gemini/settings.json', `${read(root, '.gemini/settings.json')}\n`); // a person's edit
    chmodSync(join(root, '.gemini/settings.json'), 0o600);
    expect(runCli(['integrate', 'gemini', '--remove'], { cwd: root, env }).code).toBe(0);
    expect(statSync(join(root, '.gemini/settings.json')).mode & 0o777).toBe(0o600);
  });

  it('a symlinked config: the file it points to is edited, the link stays; --remove restores it (R74)', () => {
    const { root, env } = project();
    const mine = '{ "theme": "dark" }\n';
    write(root, 'config/gemini.json', mine);
    mkdirSync(join(root, '.gemini'));
    symlinkSync('../config/gemini.json', join(root, '.gemini/settings.json'));
    const r = runCli(['integrate', 'gemini'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(root, '.gemini/settings.json')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(root, '.gemini/settings.json'))).toBe('../config/gemini.json');
    const merged = parseJsonc(read(root, 'config/gemini.json'));
    expect(merged).toEqual({ theme: 'dark', mcpServers: { gitmem: { command: 'gitmem', args: ['mcp'] } } });
    const again = runCli(['integrate', 'gemini', '--json'], { cwd: root, env });
    expect(again.json().files.every((f: { action: string }) => f.action === 'unchanged')).toBe(true);
    expect(runCli(['integrate', 'gemini', '--remove'], { cwd: root, env }).code).toBe(0);
    expect(lstatSync(join(root, '.gemini/settings.json')).isSymbolicLink()).toBe(true);
    expect(read(root, 'config/gemini.json')).toBe(mine);
  });

  it('--remove of a linked config left with nothing of its own keeps the link and the file it points to (R110)', () => {
    const { root, env } = project();
    write(root, 'config/gemini.json', '{}\n');
    write(root, 'docs/agents.md', '');
    mkdirSync(join(root, '.gemini'));
    symlinkSync('../config/gemini.json', join(root, '.gemini/settings.json'));
    symlinkSync('docs/agents.md', join(root, 'GEMINI.md'));
    expect(runCli(['integrate', 'gemini'], { cwd: root, env }).code).toBe(0);
    expect(read(root, 'docs/agents.md')).toContain('gitmem');
    // a person's edits after the run: --remove takes out gitmem's part, not the bytes it recorded
    write(root, 'config/gemini.json', `${read(root, 'config/gemini.json')}\n`);
    write(root, 'docs/agents.md', `${read(root, 'docs/agents.md')}\n`);
    const r = runCli(['integrate', 'gemini', '--remove', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().files.map((f: { action: string }) => f.action)).toEqual(['update', 'update']);
    for (const [link, to] of [
      ['.gemini/settings.json', '../config/gemini.json'],
      ['GEMINI.md', 'docs/agents.md'],
    ] as const) {
      expect(lstatSync(join(root, link)).isSymbolicLink(), link).toBe(true);
      expect(readlinkSync(join(root, link))).toBe(to);
    }
    expect(parseJsonc(read(root, 'config/gemini.json'))).toEqual({});
    expect(read(root, 'docs/agents.md').trim()).toBe('');
  });

  it('a config linked to a file outside the project is refused, exit 1, nothing written (R74)', () => {
    const { root, env } = project();
    const outside = join(dirname(root), 'dotfiles');
    write(outside, 'mcp.json', '{}\n');
    mkdirSync(join(root, '.cursor'));
    symlinkSync(join(outside, 'mcp.json'), join(root, '.cursor/mcp.json'));
    const r = runCli(['integrate', 'cursor'], { cwd: root, env });
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toContain('.cursor/mcp.json is a symbolic link');
    expect(r.stderr).toContain('nothing written');
    expect(read(outside, 'mcp.json')).toBe('{}\n');
    expect(() => statSync(join(root, '.cursor/rules'))).toThrow();
  });

  it("the Cursor rule's front-matter parses as YAML with alwaysApply true (R72)", () => {
    const { root, env } = project();
    expect(runCli(['integrate', 'cursor'], { cwd: root, env }).code).toBe(0);
    const text = read(root, '.cursor/rules/gitmem.mdc');
    const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
    expect(m).not.toBeNull();
    const fm = parseYaml(m![1]!) as Record<string, unknown>;
    expect(fm.alwaysApply).toBe(true);
    expect(fm.description).toMatch(/^Project memory \(gitmem\)/);
  });

  it('a key declared twice is refused with its line, exit 1, nothing written (R75)', () => {
    const { root, env } = project();
    // JSON.parse (as hosts read it) takes the last "mcpServers"; an edit of the first would be lost
    const mine = '{\n  "mcpServers": { "other": { "command": "o" } },\n  "mcpServers": {}\n}\n';
    write(root, '.mcp.json', mine);
    const r = runCli(['integrate', 'claude-code'], { cwd: root, env });
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toContain('.mcp.json declares "mcpServers" twice (again at line 3, column 3)');
    expect(read(root, '.mcp.json')).toBe(mine);
    for (const f of ['.claude/settings.json', 'CLAUDE.md']) expect(() => statSync(join(root, f)), f).toThrow();
  });

  it('shapes gitmem cannot merge into are refused with what is wrong, exit 1, nothing written', () => {
    const { root, env } = project();
    const cases: [string, string, string, string][] = [
      ['claude-code', '.mcp.json', '[]\n', '.mcp.json does not hold a JSON object; nothing written'],
      [
        'gemini',
        '.gemini/settings.json',
        '{ "mcpServers": [] }\n',
        '"mcpServers.gitmem" crosses a value that is not an object; nothing written',
      ],
      [
        'claude-code',
        '.claude/settings.json',
        '{ "hooks": { "SessionStart": {} } }\n',
        '"hooks.SessionStart" is not a list; nothing written',
      ],
    ];
    for (const [host, file, text, message] of cases) {
      write(root, file, text);
      const r = runCli(['integrate', host], { cwd: root, env });
      expect(r.code, `${file}: ${r.stdout}`).toBe(1);
      expect(r.stderr).toContain(message);
      expect(read(root, file)).toBe(text);
      rmSync(join(root, file));
    }
  });

  it('a folder that is not a workspace, and the home folder, are refused: exit 1, nothing written (R76)', () => {
    const scratch = tempDir();
    removeAfter(scratch);
    const plain = join(scratch, 'downloads');
    const home = join(scratch, 'home');
    mkdirSync(plain);
    mkdirSync(home);
    const env = { GITMEM_NO_HOST: '1', HOME: home };
    for (const cwd of [plain, home]) {
      const r = runCli(['integrate', 'gemini'], { cwd, env });
      expect(r.code, `${cwd}: ${r.stdout}`).toBe(1);
      expect(r.stderr).toContain('not a gitmem workspace');
      expect(readdirSync(cwd), cwd).toEqual([]);
    }
  });
});
