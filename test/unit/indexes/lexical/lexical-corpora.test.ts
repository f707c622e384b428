// Keyword results are unchanged by the binary segment form on real corpora: for every corpus under
// fixtures/corpora/, a segment loaded from its bytes answers exactly as the segment just built and
// as lunr's own index.query over the same chunks (read-only: the corpora are only read).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LexicalIndex, type LexicalDoc } from '../../../../src/indexes/lexical/lexical.js';
import { tokenize } from '../../../../src/core/tokenize.js';
import { CORPORA, corpusNames } from '../../../support/corpora.js';
import { buildWithLunr, searchWithLunr } from '../../../support/lunr-reference.js';

function markdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Paragraphs of every markdown file as chunks (the chunker is not under test here). */
function chunks(corpus: string): LexicalDoc[] {
  const root = join(CORPORA, corpus);
  const out: LexicalDoc[] = [];
  for (const file of markdown(root)) {
    const rel = relative(root, file);
    readFileSync(file, 'utf8')
      .split(/\n\s*\n/)
      .forEach((text, i) => {
        if (text.trim()) out.push({ ref: `${rel}#${i}`, text, title: rel, tags: [] });
      });
  }
  return out;
}

describe.each(corpusNames())('corpus %s', (corpus) => {
  it('loaded segment == built segment == lunr index.query', () => {
    const docs = chunks(corpus);
    expect(docs.length).toBeGreaterThan(0);
    const reference = buildWithLunr(docs);
    const loaded = LexicalIndex.fromBinary(reference.index.toBinary());
    // Queries from the corpus's own words: frequent, rare, prefixes, a required and a prohibited term.
    const words = [...new Set(docs.flatMap((d) => tokenize(d.text)))].filter((w) => w.length > 3).sort();
    expect(words.length).toBeGreaterThan(10);
    const pick = (k: number) => words[Math.floor((k * words.length) / 7) % words.length]!;
    const queries = [
      pick(1),
      `${pick(2)} ${pick(3)}`,
      `${pick(4).slice(0, 3)}*`,
      `+${pick(5)} ${pick(6)}`,
      `${pick(0)} -${pick(1)}`,
      words.slice(0, 5).join(' '),
    ];
    let hits = 0;
    for (const q of queries) {
      const fast = loaded.search(q, 20);
      expect(fast, q).toEqual(reference.index.search(q, 20));
      const ref = searchWithLunr(reference, q, 20);
      expect(
        fast.map((h) => h.ref),
        q,
      ).toEqual(ref.map((h) => h.ref));
      fast.forEach((h, i) => expect(h.score).toBeCloseTo(ref[i]!.score, 9));
      hits += fast.length;
    }
    expect(hits).toBeGreaterThan(0);
  });
});
