// Bad input B60 (docs/bad-inputs.md): a memory file whose name is near the 255-byte limit is written
// atomically like any other: the temporary file the atomic write makes next to it must not be longer
// than the limit. Real files in a temp folder, the real node fs port and the real CLI (`npm run build` first).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toRelPath } from '../../../src/core/paths.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { requireBuiltCli, runCli } from '../../support/fixtures.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), 'gitmem-longname-'));
  roots.push(root);
  mkdirSync(join(root, 'memory', 'entries'), { recursive: true });
  writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, model: { enabled: false } }));
  return root;
}

/** A file name of exactly `bytes` bytes ending in .md (ASCII and a two-byte letter). */
const nameOf = (bytes: number, letter = 'a') => `${letter.repeat(bytes - 3)}.md`;

describe('atomic writes of a file whose name is near the 255-byte limit (B60)', () => {
  it('the fs port replaces such a file in place and leaves no temporary file', async () => {
    const root = workspace();
    const fs = createNodeFs(root);
    for (const name of [nameOf(255), nameOf(250), `${'é'.repeat(124)}.md`]) {
      const rel = `memory/entries/${name}`;
      writeFileSync(join(root, rel), '# Old\n\nold text\n');
      await fs.writeTextAtomic(toRelPath(rel), '# New\n\nnew text\n');
      expect(readFileSync(join(root, rel), 'utf8')).toBe('# New\n\nnew text\n');
      // A new file of such a name too.
      const fresh = `memory/${name}`;
      await fs.writeTextAtomic(toRelPath(fresh), '# Fresh\n');
      expect(readFileSync(join(root, fresh), 'utf8')).toBe('# Fresh\n');
    }
    expect(readdirSync(join(root, 'memory', 'entries')).filter((n) => !n.endsWith('.md'))).toEqual([]);
    expect(readdirSync(join(root, 'memory')).filter((n) => !n.endsWith('.md') && n !== 'entries')).toEqual([]);
  });

  it('gitmem mv rewrites the link in a note stored under such a name', () => {
    requireBuiltCli();
    const root = workspace();
    const note = join(root, 'memory', nameOf(252));
    writeFileSync(join(root, 'memory', 'crane.md'), '# Crane\n\nThe harbour crane lifts forty tonnes.\n');
    writeFileSync(note, '# Long\n\nSee [the crane](crane.md).\n');
    const r = runCli(['mv', 'memory/crane.md', 'memory/harbour-crane.md', '--dir', root], {
      env: { GITMEM_NO_HOST: '1', GITMEM_MODEL_DIR: join(root, 'no-model') },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(note, 'utf8')).toBe('# Long\n\nSee [the crane](harbour-crane.md).\n');
    expect(readdirSync(join(root, 'memory')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
