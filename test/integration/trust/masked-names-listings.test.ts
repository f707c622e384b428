// Bad input R60 (docs/bad-inputs.md): `gitmem review`, `gitmem log` and `gitmem files` showed a
// memory file named after a key (and a commit message quoting it) as written, while recall, MCP and
// the language server masked it (R45). They now show names through the same mask
// (service/trust/shown-names.ts over core/secret-mask.ts maskName). Real git: Ann's clone commits a
// hand-made note named after a key and syncs; Ben's clone syncs and lists. Build first.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, okOutput, requireBuiltCli, runCli } from '../../support/fixtures.js';
import { ok, sync, useSyncClones } from '../../support/sync-clones.js';

// A made-up key built at run time, so the source holds no key literal.
const KEY = `AKIA${'Z6QW3RT5YU8OP2LK'}`;
const MASKED = 'AKIA…[redacted: AWS access key]';
const clones = useSyncClones();
const env = { GITMEM_NO_HOST: '1', TZ: 'UTC' };
const cli = (dir: string, ...args: string[]) => runCli([...args, '--dir', dir], { env });

function expectMasked(text: string): void {
  expect(text).not.toContain(KEY);
  expect(text).toContain(MASKED);
}

describe('R60: review, log and files mask secret-named paths', () => {
  it('shows the masked name in text and --json; approving still works', () => {
    requireBuiltCli();
    const { a, b } = clones();
    mkdirSync(join(a, 'memory', 'topics'), { recursive: true });
    writeFileSync(join(a, 'memory', 'topics', `${KEY}.md`), '# Walrus\n\nThe walrus job reads app.js nightly.\n');
    git(a, 'add', '-A');
    git(a, 'commit', '-qm', `add the ${KEY} note`);
    ok(sync(a));
    ok(sync(b));

    for (const args of [['review'], ['review', '--json'], ['log'], ['log', '--json'], ['files', 'app.js']]) {
      const r = cli(b, ...args);
      expect(r.code, r.stderr).toBe(0);
      expectMasked(r.stdout);
    }
    const files = okOutput(cli(b, 'files', 'app.js', '--json'));
    expect(files.mentions.map((m: { path: string }) => m.path)).toContain(`memory/topics/${MASKED}.md`);
    const approved = cli(b, 'review', '--approve-all', '--json');
    expectMasked(approved.stdout);
    expect(okOutput(approved).approved).toEqual([`memory/topics/${MASKED}.md`]);
    expect(okOutput(cli(b, 'review', '--json')).pending).toEqual([]);
  });
});
