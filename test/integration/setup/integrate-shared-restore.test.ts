// Bad input R171 (docs/bad-inputs.md): two hosts share one file (`.mcp.json`: Claude Code and Copilot;
// `.github/copilot-instructions.md`: Copilot and VS Code). The second host's run finds the file as it
// wants it and writes nothing; whichever host is removed last must still give back the person's
// file byte for byte (their spacing and key layout), as `--remove` promises while nobody edited it.
// Real git repository, the CLI as a process.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, write } from '../../support/fixtures.js';
import { useDemoProjects } from '../../support/demo-project.js';

const { project } = useDemoProjects();

const MINE = '{ "mcpServers": { "other": { "command": "other-mcp", "args": ["--x"] } } }\n';
const INSTRUCTIONS = '# House rules\n\nTabs, not spaces.\n';

describe('a file two hosts share comes back byte for byte (R171)', () => {
  for (const [first, second] of [
    ['claude-code', 'copilot'],
    ['copilot', 'claude-code'],
    ['vscode', 'copilot'],
  ] as const) {
    it(`${first} then ${second}, removed in the same order`, () => {
      const { root, env } = project();
      write(root, '.mcp.json', MINE);
      write(root, '.github/copilot-instructions.md', INSTRUCTIONS);
      const run = (...args: string[]) => {
        const r = runCli(['integrate', ...args], { cwd: root, env });
        expect(r.code, r.stderr).toBe(0);
      };
      run(first);
      run(second);
      expect(readFileSync(join(root, '.mcp.json'), 'utf8')).not.toBe(MINE);
      run(first, '--remove');
      run(second, '--remove');
      expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe(MINE);
      expect(readFileSync(join(root, '.github/copilot-instructions.md'), 'utf8')).toBe(INSTRUCTIONS);
    });
  }
});
