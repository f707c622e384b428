// Bad input R53 (docs/bad-inputs.md): `gitmem integrate codex` appended `[features]` and
// `[mcp_servers.gitmem]` tables to ordinary `.codex/config.toml` files that already declared those
// tables in another spelling (`features = { … }`, `features.web_search = true`,
// `mcp_servers.gitmem.command = …`), leaving invalid TOML ("Cannot declare ('features',) twice") and
// reporting `updated`, exit 0. Now the file is parsed (smol-toml) and the result is parsed again before
// anything is written; what cannot be added safely is refused with nothing written. Real CLI, real repo.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { committedFixture, noModelEnv, requireBuiltCli, runCli, write } from '../../support/fixtures.js';

const made: string[] = [];
beforeAll(() => requireBuiltCli());
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A project repository holding `.codex/config.toml` = `mine`. */
function project(mine: string): { root: string; env: Record<string, string> } {
  const root = committedFixture('demo');
  made.push(dirname(root));
  write(root, '.codex/config.toml', mine);
  return { root, env: noModelEnv(root) };
}

const GITMEM = { command: 'gitmem', args: ['mcp'] };

describe('gitmem integrate codex over an existing .codex/config.toml (R53)', () => {
  const merged: [string, string, Record<string, unknown>][] = [
    [
      'an inline features table',
      'features = { web_search = true }\n',
      { features: { web_search: true }, mcp_servers: { gitmem: GITMEM } },
    ],
    [
      'a dotted features key after a root key',
      'model="o3"\nfeatures.web_search = true\n',
      { model: 'o3', features: { web_search: true }, mcp_servers: { gitmem: GITMEM } },
    ],
    [
      'another server as dotted keys',
      'mcp_servers.other.command = "other"\n',
      { mcp_servers: { other: { command: 'other' }, gitmem: GITMEM }, features: { codex_hooks: true } },
    ],
  ];
  for (const [name, mine, expected] of merged) {
    it(`${name}: the result parses, gitmem's server added, the features table not declared twice`, () => {
      const { root, env } = project(mine);
      const r = runCli(['integrate', 'codex', '--json'], { cwd: root, env });
      expect(r.code, r.stderr).toBe(0);
      expect(parseToml(readFileSync(join(root, '.codex/config.toml'), 'utf8'))).toEqual(expected);
      if ('web_search' in ((expected.features as object) ?? {}))
        expect(r.json().notes.join('\n')).toContain('add `codex_hooks = true`');
      expect(runCli(['integrate', 'codex', '--remove'], { cwd: root, env }).code).toBe(0);
      expect(readFileSync(join(root, '.codex/config.toml'), 'utf8')).toBe(mine);
    });
  }

  const refused: [string, string, RegExp][] = [
    [
      'a gitmem server as dotted keys',
      'mcp_servers.gitmem.command = "mine"\n',
      /already declares the MCP server mcp_servers\.gitmem/,
    ],
    [
      'a gitmem server inside an inline mcp_servers table',
      'mcp_servers = { gitmem = { command = "mine" } }\n',
      /already declares the MCP server mcp_servers\.gitmem/,
    ],
    [
      'an inline mcp_servers table gitmem cannot extend',
      'mcp_servers = { other = { command = "x" } }\n',
      /would make it invalid TOML.*nothing written/,
    ],
  ];
  for (const [name, mine, message] of refused) {
    it(`${name}: refused, exit 1, nothing written`, () => {
      const { root, env } = project(mine);
      const r = runCli(['integrate', 'codex'], { cwd: root, env });
      expect(r.code, r.stdout).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(readFileSync(join(root, '.codex/config.toml'), 'utf8')).toBe(mine);
      expect(existsSync(join(root, '.codex/hooks.json'))).toBe(false);
      expect(existsSync(join(root, 'AGENTS.md'))).toBe(false);
    });
  }
});
