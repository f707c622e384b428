// `gitmem state --help` said "snapshot, updates, reset, sub-agent handoff", but there is no
// `state reset`: the fresh start is `state new`. The summary now names the subcommands there are,
// each of them, and nothing else. Real CLI from dist/.
import { beforeAll, describe, expect, it } from 'vitest';
import { okOutput, requireBuiltCli, runCli } from '../../support/fixtures.js';

beforeAll(() => requireBuiltCli());

describe('gitmem state --help', () => {
  it('the summary names every state subcommand and no command that does not exist', () => {
    const help: string = okOutput(runCli(['state', '--help']));
    const [summary, commands] = help.split(/\nOptions:|\nCommands:\n/).filter((_, i) => i !== 1) as [string, string];
    const names = [...commands.matchAll(/^ {2}(\w[\w-]*)/gm)].map((m) => m[1]!).filter((n) => n !== 'help');
    expect(names).toContain('new');
    for (const n of names) expect(summary, n).toMatch(new RegExp(`\\b${n}\\b`));
    expect(summary).not.toMatch(/\breset\b/);
  });
});
