// B61: a gitmem.config.json that is not JSON was reported with V8's JSON.parse message, which repeats
// the file's text around the unexpected character, so a config that held a credential (pasted into
// the wrong file) printed it on stderr and in the --json error of every command. Now the error names
// the character only, as H08 does for a task file. Real CLI processes on a real workspace.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFixture, runCli } from '../../support/fixtures.js';

describe('B61 a config file that is not JSON', () => {
  it('is an error that never repeats the file', () => {
    const ws = copyFixture('demo');
    writeFileSync(join(ws, 'gitmem.config.json'), 'AKIAIOSFODNN7EXAMPLE\nsecond line\n');
    for (const args of [['recall', 'webhook'], ['validate'], ['doctor']]) {
      const r = runCli([...args, '--dir', ws, '--json'], { env: { GITMEM_NO_HOST: '1' } });
      expect(r.code, r.stderr).not.toBe(0);
      const all = r.stdout + r.stderr;
      expect(all).toContain('gitmem.config.json is not valid JSON: unexpected character "A"');
      for (const leak of ['AKIA', 'IOSFOD', 'second line']) expect(all, args.join(' ')).not.toContain(leak);
    }
  });
});
