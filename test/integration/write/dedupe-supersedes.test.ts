// Bad input U57 (docs/bad-inputs.md): a correction that repeats the subject of the entry it
// supersedes is not a duplicate of it, on every path that asks the dedupe policy. Sync's incoming
// checks already left such pairs out; `gitmem dedupe` marked the correction `duplicate_of` the entry
// it corrects (hiding it from recall), and the editor flagged it as a near-duplicate. Real parser and
// workspace (a copied fixture), the real editor view.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import { NEAR_DUPLICATE, editorDiagnostics } from '../../../src/editor/diagnostics.js';
import { dedupeWorkspace } from '../../../src/service/remember/dedupe.js';
import { editorView } from '../../support/editor-view.js';
import { copyFixture } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';

const TEXT = 'Deploys run from the release branch after the staging checks pass.';
const entry = (id: string, created: string, extra = '') =>
  `---\nid: ${id}\ntype: decision\ntitle: Deploys\ntags: []\ncreated: ${created}\n${extra}status: active\n---\n\n${TEXT}\n`;

describe('a correction is not a duplicate of the entry it supersedes (U57)', () => {
  it('gitmem dedupe leaves the superseding entry alone and still finds an unlinked copy', async () => {
    const root = copyFixture('default');
    const dir = join(root, 'memory', 'entries');
    writeFileSync(join(dir, 'deploys.md'), entry('deploys', '2026-11-01T10:00:00Z'));
    writeFileSync(join(dir, 'deploys-fix.md'), entry('deploys-fix', '2026-11-20T10:00:00Z', 'supersedes: [deploys]\n'));
    writeFileSync(join(dir, 'deploys-copy.md'), entry('deploys-copy', '2026-11-25T10:00:00Z'));
    const mem = await openWorkspace(root);
    const { findings } = await dedupeWorkspace(mem.context);
    await mem.dispose();
    const mine = findings.filter((f) => f.path.includes('deploys'));
    // Only the unlinked copy (of one of the two earlier entries: both are live and say the same).
    expect(mine.map((f) => [f.id, f.reason])).toEqual([['deploys-copy', 'same-text']]);
    expect(['deploys', 'deploys-fix']).toContain(mine[0]!.duplicateOf);
  });

  it('the editor does not flag the superseding entry as a near-duplicate', () => {
    const fix = 'memory/entries/deploys-fix.md' as RelPath;
    const copy = 'memory/entries/deploys-copy.md' as RelPath;
    const v = editorView({
      'memory/entries/deploys.md': entry('deploys', '2026-11-01T10:00:00Z'),
      [fix]: entry('deploys-fix', '2026-11-20T10:00:00Z', 'supersedes: [deploys]\n'),
      [copy]: entry('deploys-copy', '2026-11-25T10:00:00Z'),
    });
    const d = editorDiagnostics(v, [fix, copy], new Set([fix, copy]));
    const near = (p: RelPath) =>
      d
        .get(p)!
        .filter((x) => x.code === NEAR_DUPLICATE)
        .map((x) => x.data?.duplicateOf);
    expect(near(fix)).toEqual([]);
    // The copy repeats both; it is flagged (the fix as well, being a live entry of the type).
    expect(near(copy)).toContain('deploys');
  });
});
