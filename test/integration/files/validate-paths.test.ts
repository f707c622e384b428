// `validate <paths>` through the real service (node fs, parser, validator): a folder argument
// stands for the memory files under it; a path that is not memory is still refused.
import { validate } from '../../../src/service/validate/validate.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';

function workspace(files: Record<string, string>): string {
  const root = join(tempDir(), 'ws');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, layout: 'default' }));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

describe('validate with paths', () => {
  it('a folder validates the memory files under it, and only those', async () => {
    const root = workspace({
      'memory/entries/a.md': '---\nid: a\ntype: decision\nsupersedes: [no-such-entry]\n---\nA\n',
      'memory/entries/sub/b.md': '---toml\nid = "b"\n---\nB\n',
      'memory/playbook/p.md': '---\nid: p\n---\nno category\n',
    });
    const mem = await openWorkspace(root);
    for (const arg of ['memory/entries', 'memory/entries/']) {
      const diags = await validate(mem.context, { paths: [arg] });
      expect([...new Set(diags.map((d) => d.path))].sort(), arg).toEqual([
        'memory/entries/a.md',
        'memory/entries/sub/b.md',
      ]);
      expect(diags.map((d) => d.code)).toContain('memory.entry.supersession.unknown-id');
    }
    await expect(validate(mem.context, { paths: ['docs'] })).rejects.toMatchObject({ code: 'path.not-memory' });
    await expect(validate(mem.context, { paths: ['memory/entries/missing.md'] })).rejects.toMatchObject({
      code: 'fs.not-found',
    });
  });
});
