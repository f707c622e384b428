// Bad input U60 (docs/bad-inputs.md): a memory-named path that is there but cannot be read as a file
// (a FIFO, a link to a FIFO, a broken link, a file swapped for a FIFO between the walk and the read)
// is a `memory.file.unreadable` warning of `validate`, not only a line on stderr. Before, the walk
// refused it, wrote "skipped …" to stderr and `validate` answered clean. Real CLI processes over a
// copied fixture; the race through the real node fs and the real loader.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import type { MemoryFs } from '../../../src/core/ports.js';
import { loadConfig, readWorkspace } from '../../../src/engine/load/load.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { copyFixture, runCli, gitFixture, noModelEnv, requireBuiltCli } from '../../support/fixtures.js';

let root: string;
const env = () => noModelEnv(root);
const mkfifo = (p: string) => execFileSync('mkfifo', [p]);

beforeAll(() => {
  requireBuiltCli();
  root = gitFixture('demo');
  mkfifo(join(root, 'memory/entries/fifo.md'));
  symlinkSync('fifo.md', join(root, 'memory/entries/to-fifo.md'));
  symlinkSync('missing.md', join(root, 'memory/entries/dangling.md'));
  mkfifo(join(root, 'notes-pipe.md')); // not a memory path: no diagnostic
});
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }));

describe('U60: an unreadable memory file is a validate diagnostic', () => {
  it('validate --json reports each unreadable memory path once, as a warning', () => {
    const r = runCli(['validate', '--json', '--dir', root], { env: env() });
    expect(r.code).toBe(0);
    const unreadable = (r.json().diagnostics as { path: string; code: string; severity: string; message: string }[])
      .filter((d) => d.code === DiagnosticCode.fileUnreadable)
      .map((d) => [d.path, d.severity, d.message]);
    expect(unreadable).toEqual([
      ['memory/entries/dangling.md', 'warning', expect.stringContaining('broken symlink')],
      ['memory/entries/fifo.md', 'warning', expect.stringContaining('FIFO')],
      ['memory/entries/to-fifo.md', 'warning', expect.stringContaining('FIFO')],
    ]);
  });

  it('validate names the FIFO when asked for it, and for its folder', () => {
    const one = runCli(['validate', 'memory/entries/fifo.md', '--json', '--dir', root], { env: env() });
    expect(one.code).toBe(0);
    expect(one.json().diagnostics.map((d: { code: string }) => d.code)).toEqual([DiagnosticCode.fileUnreadable]);
    const folder = runCli(['validate', 'memory/entries', '--dir', root], { env: env() });
    expect(folder.stdout).toContain('memory/entries/fifo.md');
    expect(folder.stdout).toContain(DiagnosticCode.fileUnreadable);
  });

  it('recall still answers (the FIFO is never opened for a blocking read)', () => {
    const r = runCli(['recall', 'queue tests real timers', '--mode', 'keyword', '--json', '--dir', root], {
      env: env(),
    });
    expect(r.code).toBe(0);
    expect(r.json().results.length).toBeGreaterThan(0);
  });

  it('a file swapped for a FIFO between the walk and the read is reported too', async () => {
    const ws = copyFixture('demo');
    try {
      const base = createNodeFs(ws);
      const target = 'memory/entries/2026-11-25-prefer-small-prs.md';
      const swapping: MemoryFs = {
        ...base,
        list: (...a) => base.list(...a),
        stat: (p) => base.stat(p),
        // The first read of the target finds a FIFO where the walk saw a regular file.
        readChecked: async (p) => {
          if (p === target && existsSync(join(ws, target))) {
            unlinkSync(join(ws, target));
            mkfifo(join(ws, target));
          }
          return base.readChecked!(p);
        },
      };
      delete (swapping as { statAll?: unknown }).statAll;
      const raw = await readWorkspace(swapping, await loadConfig(base));
      const d = raw.fileDiagnostics.filter((x) => x.path === target);
      expect(d.map((x) => [x.code, x.severity])).toEqual([[DiagnosticCode.fileUnreadable, 'warning']]);
      expect(d[0]!.message).toContain('FIFO');
      expect(raw.files.some((f) => f.path === target)).toBe(false);
    } finally {
      rmSync(dirname(ws), { recursive: true, force: true });
    }
  });
});
