// docs/cli.md and docs/mcp.md are generated from the code (npm run docs:ref); this fails when the
// committed files and the commander program or the MCP tool definitions differ, so the references
// cannot drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { cliReference } from '../../src/cli/reference.js';
import { mcpReference } from '../../src/mcp/reference.js';
import { TOOL_DEFINITIONS } from '../../src/mcp/tools/index.js';

const DOCS = join(import.meta.dirname, '..', '..', 'docs');
const hint = 'run `npm run docs:ref` and commit docs/cli.md and docs/mcp.md';

describe('generated references', () => {
  it('docs/cli.md is the commander program, every command and option', async () => {
    const program = await buildProgram();
    const text = cliReference(program);
    expect(readFileSync(join(DOCS, 'cli.md'), 'utf8'), hint).toBe(text);
    // complete: every command and sub-command has a section, every option a row
    const walk = (c: Command, path: string[]): void => {
      for (const sub of c.commands) {
        if (sub.name() === 'help') continue;
        const name = [...path, sub.name()].join(' ');
        expect(text).toContain(`\`${name}\`\n`);
        for (const o of sub.options) if (!o.hidden) expect(text).toContain(`\`${o.flags}`);
        walk(sub, [...path, sub.name()]);
      }
    };
    walk(program, ['gitmem']);
  });

  it('docs/mcp.md is the tool definitions, every tool and argument', () => {
    const text = mcpReference();
    expect(readFileSync(join(DOCS, 'mcp.md'), 'utf8'), hint).toBe(text);
    for (const t of TOOL_DEFINITIONS) {
      expect(text).toContain(`## \`${t.name}\``);
      for (const arg of Object.keys(t.inputSchema.properties ?? {})) expect(text).toContain(`| \`${arg}\` |`);
    }
  });

  it('the CLI reference writes no machine path: a home folder becomes ~', () => {
    const program = new Command('gitmem').option('--dest <dir>', 'default /home/someone/.local/share/x');
    expect(cliReference(program, [['/home/someone', '~']])).toContain('default ~/.local/share/x');
  });
});
