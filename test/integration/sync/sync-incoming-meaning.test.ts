// Bad input U54 (docs/bad-inputs.md): an entry a sync brings in is checked for repeats by meaning too,
// as `remember` checks a local write. Real git (a bare remote and two clones, test/support/sync-clones.ts)
// and the shipped embedding model: Ben's reworded copy of Ann's decision shares too few words for the
// rule by text (Jaccard under dedupe.jaccard), but its embedding is as close as `remember` calls a
// duplicate, so Ann's sync reports the pair; Ben's unrelated entry is not reported.
import { describe, expect, it } from 'vitest';
import { write, okOutput } from '../../support/fixtures.js';
import { modelEnv } from '../../support/model.js';
import { decisionSharedByAnn, useSyncClones } from '../../support/sync-clones.js';
import { ANN, BEN, entryFile } from '../../support/repeats.js';

const syncClones = useSyncClones();

describe('sync checks what came in by meaning too (U54)', { timeout: 240_000 }, () => {
  it("a reworded copy of a teammate's entry is reported as a duplicate; an unrelated one is not", () => {
    const clones = syncClones();
    const { a, b } = clones;
    const { cli, mine } = decisionSharedByAnn(clones, modelEnv(), ANN);
    // The same check on a local write says duplicate (once the entry is embedded).
    okOutput(cli(b, 'index'));
    expect(okOutput(cli(b, 'remember', BEN, '--type', 'decision')).status).toBe('duplicate');
    // Ben writes it as a file instead (his clone's remember would have told him).
    write(
      b,
      'memory/entries/2026-12-01-ben-retries.md',
      entryFile('2026-12-01-ben-retries', '2026-12-01T10:00:00Z', BEN),
    );
    write(
      b,
      'memory/entries/2026-12-01-ben-cache.md',
      entryFile(
        '2026-12-01-ben-cache',
        '2026-12-01T10:00:00Z',
        'The search page caches facet counts in Redis for ten minutes',
      ),
    );
    okOutput(cli(b, 'sync'));
    const r = okOutput(cli(a, 'sync'));
    expect(r.incomingFindings).toEqual([
      expect.objectContaining({
        finding: 'duplicate',
        id: '2026-12-01-ben-retries',
        with: { id: mine.id, path: mine.path },
      }),
    ]);
    expect(r.incomingFindings[0].similarity).toBeGreaterThanOrEqual(0.95);
  });
});
