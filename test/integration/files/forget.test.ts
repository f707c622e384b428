// service/files/forget.ts on real files: only the `status` value changes (or one line is added), CRLF and
// BOM are kept, the result reads back as archived, ambiguous and non-entry targets are refused.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgetEntry } from '../../../src/service/files/forget.js';
import { tempDir } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';

function workspace(files: Record<string, string>): string {
  const root = join(tempDir(), 'ws');
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  mkdirSync(join(root, 'memory'), { recursive: true });
  return root;
}

async function forget(root: string, ref: string) {
  return forgetEntry((await openWorkspace(root)).context, { ref });
}

describe('forgetEntry', () => {
  it('rewrites only the status value (quoted, with a comment), keeping CRLF and BOM', async () => {
    const text =
      '\uFEFF---\r\nid: a\r\ntype: decision\r\nstatus: "active"  # keep this comment\r\ntags: [x]\r\n---\r\nUse lunr.\r\n';
    const root = workspace({ 'memory/entries/a.md': text });
    const r = await forget(root, 'a');
    expect(r).toMatchObject({ status: 'archived', id: 'a', path: 'memory/entries/a.md', previous: 'active' });
    expect(readFileSync(join(root, 'memory/entries/a.md'), 'utf8')).toBe(text.replace('"active"', 'archived'));
    const doc = (await (await openWorkspace(root)).context.workspace()).tryGet('memory/entries/a.md' as never)!;
    expect(doc.meta.status).toBe('archived');
    expect((await forget(root, 'memory/entries/a.md')).status).toBe('unchanged');
  });

  it('adds one line before the closing delimiter when there is no status; front-matter-less entries get one', async () => {
    const root = workspace({
      'memory/entries/b.md': '---\nid: b\ntype: learning\n---\nbody\n',
      'memory/entries/c.md': 'just a body\n',
    });
    await forget(root, 'b');
    expect(readFileSync(join(root, 'memory/entries/b.md'), 'utf8')).toBe(
      '---\nid: b\ntype: learning\nstatus: archived\n---\nbody\n',
    );
    await forget(root, 'memory/entries/c.md');
    expect(readFileSync(join(root, 'memory/entries/c.md'), 'utf8')).toBe('---\nstatus: archived\n---\njust a body\n');
  });

  it('refuses ambiguous ids, non-entries, unknown ids and broken front-matter', async () => {
    const root = workspace({
      'memory/entries/d1.md': '---\nid: dup\ntype: learning\n---\none\n',
      'memory/entries/d2.md': '---\nid: dup\ntype: learning\n---\ntwo\n',
      'memory/entries/bad.md': '---\nid: bad\ntype: [unclosed\n---\nbody\n',
      'memory/MEMORY.md': '# Memory\n',
    });
    await expect(forget(root, 'dup')).rejects.toMatchObject({ code: 'entry.invalid' });
    await expect(forget(root, 'memory/MEMORY.md')).rejects.toMatchObject({ code: 'entry.invalid' });
    await expect(forget(root, 'nope')).rejects.toMatchObject({ code: 'entry.not-found' });
    await expect(forget(root, 'memory/entries/bad.md')).rejects.toMatchObject({ code: 'entry.invalid' });
    expect(readFileSync(join(root, 'memory/entries/bad.md'), 'utf8')).toBe(
      '---\nid: bad\ntype: [unclosed\n---\nbody\n',
    );
  });
});
