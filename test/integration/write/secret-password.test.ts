// Bad input U05 (docs/bad-inputs.md): a plain `password=…` / `passwd: …` in memory text, short and
// low in entropy, is refused by `gitmem remember` (exit 1, secret.found, the value never echoed),
// while a sentence about password rules is written as usual. Real CLI over a temp git workspace.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyFixture, git, runCli } from '../../support/fixtures.js';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(dirname(d), { recursive: true, force: true });
});

describe('password assignments in remembered text', { timeout: 120_000 }, () => {
  it('refuses password=hunter2 and passwd: S3cret!x, writes a note about the password policy', () => {
    const ws = copyFixture('demo');
    made.push(ws);
    git(ws, 'init', '-q');
    for (const text of ['staging db password=hunter2 for now', 'smtp relay passwd: S3cret!x']) {
      const r = runCli(['remember', text, '--json', '--dir', ws]);
      expect(r.code, r.stdout).toBe(1);
      expect(r.json().error.code).toBe('secret.found');
      expect(r.stdout + r.stderr).not.toMatch(/hunter2|S3cret!x/);
      // A short value's preview shows a third of it at most (two characters here), not four.
      for (const f of r.json().error.data.findings) expect(f.preview).toMatch(/^.{2}…$/);
    }
    const ok = runCli(['remember', 'password: min-length-12, rotate every 90 days', '--json', '--dir', ws]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json().status).toBe('created');
  });
});
