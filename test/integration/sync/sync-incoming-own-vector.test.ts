// Sync's incoming checks read an incoming entry's own stored vector (issue #18, one dedupe policy):
// the rule by meaning run on an entry a sync brought in takes that entry's vector from the index (its
// chunks' stored vectors, service/shared/dedupe-policy.ts storedProbe), as `gitmem dedupe` does, and
// embeds a text only when none is stored. Real git (a bare remote and two clones,
// test/support/sync-clones.ts), real CLI processes and the shipped embedding model. Ben's entry has no
// front-matter title, so the index embeds its body alone; a probe built from its text (a title line
// taken from the text, then the text) is another embedding, with another cosine. The finding sync
// reports must carry the cosine of the stored vectors, the one `gitmem dedupe` reports for the pair.
import { describe, expect, it } from 'vitest';
import { write, okOutput } from '../../support/fixtures.js';
import { modelEnv } from '../../support/model.js';
import { decisionSharedByAnn, useSyncClones } from '../../support/sync-clones.js';
import { ANN, BEN } from '../../support/repeats.js';

const syncClones = useSyncClones();

describe("sync's incoming checks read the incoming entry's stored vector", { timeout: 240_000 }, () => {
  it('reports the cosine gitmem dedupe reports for the same pair', () => {
    const clones = syncClones();
    const { a, b } = clones;
    const { cli, mine } = decisionSharedByAnn(clones, modelEnv(), ANN);
    // No title in the front-matter: the index embeds the body as it is.
    write(
      b,
      'memory/entries/2026-12-01-ben-retries.md',
      `---\nid: 2026-12-01-ben-retries\ntype: decision\ntags: []\ncreated: 2026-12-01T10:00:00Z\nstatus: active\n---\n\n${BEN}\n`,
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
    // gitmem dedupe reads both entries' stored vectors (single chunks: the cosine is the same either way round).
    const d = okOutput(cli(a, 'dedupe'));
    const pair = d.findings.find(
      (f: any) => [f.id, f.duplicateOf].sort().join(' ') === [mine.id, '2026-12-01-ben-retries'].sort().join(' '),
    );
    expect(pair).toMatchObject({ reason: 'meaning' });
    expect(r.incomingFindings[0].similarity).toBe(pair.similarity);
  });
});
