// Dreams on the real corpora in fixtures/corpora (temp copies): every proposal's evidence points at
// an existing line, and the openclaw-zh pass matches the kept sample output
// fixtures/dreams/openclaw-zh.DREAMS.md (regenerate with UPDATE=1).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dream } from '../../../src/service/ace/dream-proposals.js';
import { copyDir, REPO } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';
import { CORPORA as corpora, corpusNames } from '../../support/corpora.js';

const NOW = new Date('2026-11-29T12:00:00Z');
const GOLDEN = join(REPO, 'fixtures', 'dreams', 'openclaw-zh.DREAMS.md');

describe('dream on real corpora', () => {
  const names = corpusNames();

  it('finds the corpora', () => {
    expect(names).toContain('openclaw-zh');
  });

  for (const name of names) {
    it(`${name}: proposals cite existing lines${name === 'openclaw-zh' ? ' and match the sample output' : ''}`, async () => {
      const root = copyDir(join(corpora, name), name);
      const mem = await openWorkspace(root);
      try {
        // Speed is a benchmark figure, not asserted here (a busy machine would fail it).
        const res = await dream(mem.context, { git: {}, now: NOW, exists: (p) => existsSync(join(root, p)) });
        for (const p of res.proposals) {
          expect(p.evidence.length).toBeGreaterThan(0);
          for (const e of p.evidence) {
            const lines = readFileSync(join(root, e.path), 'utf8').split('\n').length;
            expect(e.line, `${p.id} ${e.path}:${e.line}`).toBeLessThanOrEqual(lines);
          }
        }
        if (name === 'openclaw-zh') {
          expect(res.proposals.filter((p) => p.kind === 'promotion').length).toBeGreaterThan(3);
          const text = readFileSync(join(root, res.path), 'utf8');
          if (process.env.UPDATE) writeFileSync(GOLDEN, text);
          expect(text).toBe(readFileSync(GOLDEN, 'utf8'));
        }
      } finally {
        await mem.dispose();
      }
    });
  }
});
