// `gitmem integrate <host>` as a real process on a real git repository holding the demo memory: each
// host's files are written, parsed back with a parser of their format, left unchanged by a second
// run, shown and not written by --dry-run, and restored byte for byte by --remove (around files a
// person wrote first). The hooks written for Claude Code and Codex are then run as those hosts run
// them (`sh -c <command>` in the project, the host's documented JSON payload on stdin), checking
// what they print and their exit status. Sources of the file names, keys and payloads:
// docs/integrations.md.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { git, runCli, write } from '../../support/fixtures.js';
import { useDemoProjects } from '../../support/demo-project.js';

const { projectWithGitmemOnPath: project } = useDemoProjects();

/** Every file under `root` except .git, with its bytes. */
function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p.slice(root.length + 1), readFileSync(p, 'utf8'));
    }
  };
  walk(root);
  return out;
}

/** Run a hook command as a host does: through the shell, in the project, the payload on stdin. */
function runHook(command: string, payload: object, root: string, env: Record<string, string>) {
  const r = spawnSync('sh', ['-c', command], {
    cwd: root,
    env: { ...process.env, ...env },
    input: JSON.stringify(payload),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const FILES: Record<string, string[]> = {
  'claude-code': ['.mcp.json', '.claude/settings.json', 'CLAUDE.md'],
  codex: ['.codex/config.toml', '.codex/hooks.json', 'AGENTS.md'],
  cursor: ['.cursor/mcp.json', '.cursor/rules/gitmem.mdc'],
  copilot: ['.mcp.json', '.github/hooks/gitmem.json', '.github/copilot-instructions.md'],
  gemini: ['.gemini/settings.json', 'GEMINI.md'],
  vscode: ['.vscode/mcp.json', '.github/copilot-instructions.md'],
};

/** The MCP server registration each host reads, parsed. */
function mcpEntry(host: string, root: string): { command: string; args: string[] } {
  const json = (p: string) => JSON.parse(readFileSync(join(root, p), 'utf8'));
  switch (host) {
    case 'claude-code':
    case 'copilot':
      return json('.mcp.json').mcpServers.gitmem;
    case 'cursor':
      return json('.cursor/mcp.json').mcpServers.gitmem;
    case 'gemini':
      return json('.gemini/settings.json').mcpServers.gitmem;
    case 'vscode':
      return json('.vscode/mcp.json').servers.gitmem;
    default: {
      // TOML, parsed back with a TOML parser: the table Codex reads, and the hooks switch
      const toml = parseToml(readFileSync(join(root, '.codex/config.toml'), 'utf8')) as {
        mcp_servers: { gitmem: { command: string; args: string[] } };
        features: { codex_hooks: boolean };
      };
      expect(toml.features.codex_hooks).toBe(true);
      expect(toml.mcp_servers.gitmem).toEqual({ command: 'gitmem', args: ['mcp'] });
      return toml.mcp_servers.gitmem;
    }
  }
}

describe('gitmem integrate', () => {
  for (const host of Object.keys(FILES)) {
    it(`${host}: writes the files it reads, idempotent, --dry-run writes nothing, --remove restores byte for byte`, () => {
      const { root, env } = project();
      // what a person wrote before: kept around gitmem's additions and restored exactly
      write(root, 'AGENTS.md', '# Agents\n\nRun `npm test` before pushing.\n');
      write(root, '.claude/settings.json', '{\n    "permissions": {"allow": ["Bash(ls)"]}\n}\n');
      write(root, '.vscode/mcp.json', '{"servers": {"other": {"type": "stdio", "command": "other"}}}');
      write(root, '.github/copilot-instructions.md', 'Use tabs.');
      const before = snapshot(root);

      const dry = runCli(['integrate', host, '--dry-run'], { cwd: root, env });
      expect(dry.code, dry.stderr).toBe(0);
      for (const f of FILES[host]!) expect(dry.stdout).toContain(`b/${f}`);
      expect(snapshot(root)).toEqual(before);

      const first = runCli(['integrate', host, '--json'], { cwd: root, env });
      expect(first.code, first.stderr).toBe(0);
      const after = snapshot(root);
      for (const f of FILES[host]!) expect(after.has(f), f).toBe(true);
      for (const [f, text] of after) if (f.endsWith('.json')) expect(() => JSON.parse(text), f).not.toThrow();
      expect(mcpEntry(host, root)).toMatchObject({ command: 'gitmem', args: expect.arrayContaining(['mcp']) });
      // what the person wrote is still there
      if (FILES[host]!.includes('AGENTS.md'))
        expect(after.get('AGENTS.md')).toContain('Run `npm test` before pushing.');
      if (host === 'claude-code')
        expect(JSON.parse(after.get('.claude/settings.json')!).permissions).toEqual({ allow: ['Bash(ls)'] });
      if (host === 'vscode') expect(JSON.parse(after.get('.vscode/mcp.json')!).servers.other.command).toBe('other');
      for (const f of FILES[host]!.filter((p) => p.endsWith('.md') || p.endsWith('.mdc')))
        expect(after.get(f)).toContain('memory_recall');

      const again = runCli(['integrate', host, '--json'], { cwd: root, env });
      expect(again.code).toBe(0);
      expect(again.json().files.every((f: { action: string }) => f.action === 'unchanged')).toBe(true);
      expect(snapshot(root)).toEqual(after);

      const removed = runCli(['integrate', host, '--remove'], { cwd: root, env });
      expect(removed.code, removed.stderr).toBe(0);
      expect(snapshot(root)).toEqual(before);
      for (const d of ['.codex', '.cursor', '.gemini', '.github/hooks'])
        expect(existsSync(join(root, d)), d).toBe(false);
    });
  }

  it('claude-code: the hooks answer Claude Code payloads with the snapshot and the recalled context', () => {
    const { root, env } = project();
    expect(runCli(['integrate', 'claude-code'], { cwd: root, env }).code).toBe(0);
    const hooks = JSON.parse(readFileSync(join(root, '.claude/settings.json'), 'utf8')).hooks;
    const command = (event: string) => hooks[event][0].hooks[0].command as string;
    const common = { session_id: 's1', transcript_path: join(root, 't.jsonl'), cwd: root, permission_mode: 'default' };

    const start = runHook(
      command('SessionStart'),
      { ...common, hook_event_name: 'SessionStart', source: 'startup' },
      root,
      env,
    );
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toContain('Cut p95 latency of `GET /v2/shipments/:id` below 120 ms.');

    const prompt = runHook(
      command('UserPromptSubmit'),
      { ...common, hook_event_name: 'UserPromptSubmit', prompt: 'How do we retry carrier webhooks?' },
      root,
      env,
    );
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toMatch(/^### Recalled Context\n/);
    expect(prompt.stdout.toLowerCase()).toContain('jitter');

    const head = git(root, 'rev-parse', 'HEAD').trim();
    const compact = runHook(
      command('PreCompact'),
      { ...common, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: '' },
      root,
      env,
    );
    expect(compact.code, compact.stderr).toBe(0);
    expect(git(root, 'log', '-1', '--format=%s').trim()).toBe('state: before compaction');
    expect(git(root, 'rev-parse', 'HEAD~1').trim()).toBe(head);

    const end = runHook(
      command('SessionEnd'),
      { ...common, hook_event_name: 'SessionEnd', reason: 'other' },
      root,
      env,
    );
    expect(end.code, end.stderr).toBe(0);
  });

  it('codex: the hooks answer Codex payloads with the snapshot and the recalled context', () => {
    const { root, env } = project();
    expect(runCli(['integrate', 'codex'], { cwd: root, env }).code).toBe(0);
    const hooks = JSON.parse(readFileSync(join(root, '.codex/hooks.json'), 'utf8')).hooks;
    const command = (event: string) => hooks[event][0].hooks[0].command as string;
    const common = { session_id: 's1', transcript_path: null, cwd: root, model: 'gpt-5-codex' };
    const start = runHook(
      command('SessionStart'),
      { ...common, hook_event_name: 'SessionStart', source: 'startup' },
      root,
      env,
    );
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toContain('Working state (CURRENT_STATE.md)');
    const prompt = runHook(
      command('UserPromptSubmit'),
      { ...common, turn_id: 't1', hook_event_name: 'UserPromptSubmit', prompt: 'webhook retries' },
      root,
      env,
    );
    expect(prompt.code, prompt.stderr).toBe(0);
    expect(prompt.stdout).toMatch(/^### Recalled Context\n/);
    const stop = runHook(
      command('Stop'),
      { ...common, turn_id: 't1', hook_event_name: 'Stop', stop_hook_active: false },
      root,
      env,
    );
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toBe('');
  });

  it("codex: merges into a person's .codex/config.toml; the file parses as TOML with both tables", () => {
    const { root, env } = project();
    const mine =
      'model = "o3"\n\n[mcp_servers.other]\ncommand = "other"\nargs = ["serve"]\n\n[features]\nweb_search = true\n';
    write(root, '.codex/config.toml', mine);
    const r = runCli(['integrate', 'codex', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    // a second [features] table would be invalid TOML: gitmem leaves it to the person and says so
    expect(r.json().notes.join('\n')).toContain('add `codex_hooks = true`');
    const toml = parseToml(readFileSync(join(root, '.codex/config.toml'), 'utf8'));
    expect(toml).toEqual({
      model: 'o3',
      mcp_servers: {
        other: { command: 'other', args: ['serve'] },
        gitmem: { command: 'gitmem', args: ['mcp'] },
      },
      features: { web_search: true },
    });
    expect(runCli(['integrate', 'codex', '--remove'], { cwd: root, env }).code).toBe(0);
    expect(readFileSync(join(root, '.codex/config.toml'), 'utf8')).toBe(mine);
  });

  it("a second run after a person edited the file: --remove keeps the person's lines (R37)", () => {
    const { root, env } = project();
    expect(runCli(['integrate', 'claude-code'], { cwd: root, env }).code).toBe(0);
    const mine = '\n## My own rules\nNever push on Fridays.\n';
    writeFileSync(join(root, 'CLAUDE.md'), readFileSync(join(root, 'CLAUDE.md'), 'utf8') + mine);
    const again = runCli(['integrate', 'claude-code'], { cwd: root, env });
    expect(again.code, again.stderr).toBe(0);
    const r = runCli(['integrate', 'claude-code', '--remove'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(root, 'CLAUDE.md'), 'utf8')).toBe(mine);
    expect(existsSync(join(root, '.mcp.json'))).toBe(false);
  });

  it('removing one host leaves a file another host still uses', () => {
    const { root, env } = project();
    expect(runCli(['integrate', 'copilot'], { cwd: root, env }).code).toBe(0);
    expect(runCli(['integrate', 'vscode'], { cwd: root, env }).code).toBe(0);
    expect(runCli(['integrate', 'copilot', '--remove'], { cwd: root, env }).code).toBe(0);
    expect(readFileSync(join(root, '.github/copilot-instructions.md'), 'utf8')).toContain('memory_recall');
    expect(runCli(['integrate', 'vscode', '--remove'], { cwd: root, env }).code).toBe(0);
    expect(existsSync(join(root, '.github/copilot-instructions.md'))).toBe(false);
  });

  it('refuses an unknown host (exit 2) and a broken JSON file (nothing written)', () => {
    const { root, env } = project();
    const bad = runCli(['integrate', 'emacs'], { cwd: root, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('one of: claude-code, codex, cursor, copilot, gemini, vscode');
    write(root, '.cursor/mcp.json', '{ // mine\n "mcpServers": { "x": } }\n');
    const before = snapshot(root);
    const r = runCli(['integrate', 'cursor'], { cwd: root, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('.cursor/mcp.json is not valid JSON (ValueExpected at line 2');
    expect(snapshot(root)).toEqual(before);
  });

  it('refuses a .codex/config.toml that is not valid TOML (exit 1, nothing written) (R39)', () => {
    const { root, env } = project();
    write(root, '.codex/config.toml', 'model = "o3"\n[mcp_servers.other\ncommand = "other"\n');
    const before = snapshot(root);
    const r = runCli(['integrate', 'codex'], { cwd: root, env });
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toContain('.codex/config.toml is not valid TOML (illegal character in key at line 2, column 19)');
    expect(r.stderr).toContain('nothing written');
    expect(snapshot(root)).toEqual(before);
  });

  it('host files with comments and trailing commas (JSONC) are edited in place, comments kept (R38)', () => {
    const { root, env } = project();
    const files: Record<string, string> = {
      '.vscode/mcp.json':
        '// servers for this project\n{\n  "servers": {\n    /* the linter */\n    "other": { "type": "stdio", "command": "other" },\n  },\n}\n',
      '.gemini/settings.json': '{\n\t// my theme\n\t"theme": "dark"\n}\n',
      '.cursor/mcp.json': '{ /* none yet */ }\n',
      '.claude/settings.json': '{\n  // allow ls\n  "permissions": { "allow": ["Bash(ls)"] }\n}\n',
    };
    for (const [f, text] of Object.entries(files)) write(root, f, text);
    const before = snapshot(root);
    for (const host of ['vscode', 'gemini', 'cursor', 'claude-code']) {
      const r = runCli(['integrate', host], { cwd: root, env });
      expect(r.code, `${host}: ${r.stderr}`).toBe(0);
    }
    const after = snapshot(root);
    expect(after.get('.vscode/mcp.json')).toContain('// servers for this project\n');
    expect(after.get('.vscode/mcp.json')).toContain('/* the linter */');
    expect(after.get('.gemini/settings.json')).toContain('\t// my theme\n\t"theme": "dark"');
    expect(after.get('.claude/settings.json')).toContain('// allow ls');
    const jsonc = (f: string) => parseJsonc(after.get(f)!, [], { allowTrailingComma: true });
    expect(jsonc('.vscode/mcp.json').servers.other.command).toBe('other');
    expect(jsonc('.vscode/mcp.json').servers.gitmem.command).toBe('gitmem');
    expect(jsonc('.gemini/settings.json').mcpServers.gitmem.command).toBe('gitmem');
    expect(jsonc('.cursor/mcp.json').mcpServers.gitmem.command).toBe('gitmem');
    expect(jsonc('.claude/settings.json').permissions).toEqual({ allow: ['Bash(ls)'] });
    expect(jsonc('.claude/settings.json').hooks).toBeDefined();
    // a second run changes nothing
    for (const host of ['vscode', 'gemini', 'cursor', 'claude-code'])
      expect(runCli(['integrate', host], { cwd: root, env }).code).toBe(0);
    expect(snapshot(root)).toEqual(after);
    for (const host of ['vscode', 'gemini', 'cursor', 'claude-code'])
      expect(runCli(['integrate', host, '--remove'], { cwd: root, env }).code).toBe(0);
    expect(snapshot(root)).toEqual(before);
  });
});
