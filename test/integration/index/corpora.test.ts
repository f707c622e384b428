// Every real workspace under fixtures/corpora (written by nobody on this team) is indexed and validated
// without a crash, from a temp copy; each yields chunks and answers a recall for its own words.
import { validate } from '../../../src/service/validate/validate.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyDir } from '../../support/fixtures.js';
import { openWorkspace } from '../../support/memory.js';
import { CORPORA as corpora, corpusNames } from '../../support/corpora.js';
import { recall } from '../../../src/service/recall/recall.js';

const names = corpusNames();

describe('real corpora', () => {
  it('finds the corpora', () => {
    expect(names.length).toBeGreaterThanOrEqual(7);
  });

  for (const name of names) {
    it(`${name}: indexes, validates and recalls`, async () => {
      const root = copyDir(join(corpora, name), name);
      const mem = await openWorkspace(root);
      const report = await mem.index();
      expect(report.files).toBeGreaterThan(0);
      expect(report.chunks).toBeGreaterThan(0);
      const diags = await validate(mem.context);
      for (const d of diags) {
        expect(d.range.start.line).toBeGreaterThanOrEqual(0);
        expect(typeof d.code).toBe('string');
      }
      // A word taken from the corpus itself must be found.
      const ws = await mem.context.workspace();
      const doc = ws.docs().find((d) => d.chunks.length > 0)!;
      const word = doc.chunks
        .flatMap((c) => c.text.split(/[^\p{L}\p{N}]+/u))
        .find((w) => w.length >= 6 && /^\p{L}+$/u.test(w));
      if (word) {
        const r = await recall(mem.context, word, { mode: 'keyword', limit: 50 });
        expect(r.results.length, `recall "${word}"`).toBeGreaterThan(0);
      }
      // Second open: the persisted index is loaded, not rebuilt.
      const again = await (await openWorkspace(root, { indexDir: mem.storage.location })).index();
      expect(again.source).toBe('loaded');
      expect(again.chunks).toBe(report.chunks);
    });
  }
});
