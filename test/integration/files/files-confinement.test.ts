// U58: `gitmem files` with a path out of the workspace answered exit 0 ("0 memories") while `log`
// refused the same path with path.outside-root; now it meets the same confinement check.
import { describe, expect, it } from 'vitest';
import { copyFixture, runCli } from '../../support/fixtures.js';

describe('U58 gitmem files and a path out of the workspace', () => {
  it('refuses ../, absolute and src/../../ paths with path.outside-root and still answers a workspace path', () => {
    const ws = copyFixture('demo');
    for (const p of ['../../etc/passwd', '/etc/passwd', 'src/../../x']) {
      const r = runCli(['files', p, '--dir', ws, '--json']);
      expect(r.code, p).toBe(1);
      expect(r.json().error.code, p).toBe('path.outside-root');
    }
    const ok = runCli(['files', 'src/db/pool.ts', '--dir', ws, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.json().memories.map((m: { id: string }) => m.id)).toContain('2026-11-20-postgres-connection-pool');
  });
});
