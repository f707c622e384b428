// Every command's --help lists the global options (--dir, --json, --debug, --no-host) beside its own:
// the README names `gitmem verify --json`, and `gitmem verify --help` did not say --json existed.
// The CLI as a process.
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../../support/fixtures.js';

beforeAll(() => requireBuiltCli());

describe('--help of a command', () => {
  for (const command of [['verify'], ['integrate'], ['state', 'snapshot']]) {
    it(`gitmem ${command.join(' ')} --help lists the global options`, () => {
      const r = runCli([...command, '--help']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Global Options:');
      for (const flag of ['--dir <path>', '--json', '--debug', '--no-host']) expect(r.stdout).toContain(flag);
    });
  }
});
