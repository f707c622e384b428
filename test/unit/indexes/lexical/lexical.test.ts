import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../../src/core/errors.js';
import { LexicalIndex, parseQuery, type LexicalDoc } from '../../../../src/indexes/lexical/lexical.js';
import { buildWithLunr, loadLunrJson, lunrJson, searchWithLunr } from '../../../support/lunr-reference.js';

const refs = (index: LexicalIndex, q: string) => index.search(q).map((h) => h.ref);

describe('B01: query syntax never throws', () => {
  const index = LexicalIndex.build([
    { ref: 'memory/playbook/reset.md#5', text: 'Use git reset --hard only after a checkpoint.' },
    { ref: 'memory/MEMORY.md#3', text: 'Checkpoints are commits.' },
  ]);

  // Each query is answered (no throw) with exactly the hits its usable terms call for.
  it.each([
    ['~', []],
    ['^', []],
    ['+', []],
    ['-', []],
    ['--hard', ['memory/playbook/reset.md#5']],
    ['--help', []],
    ['"', []],
    [':', []],
    ['type:', []],
    ['foo:bar', []],
    ['*', []],
    ['a~2^3', []],
    ['', []],
    ['-hard', []], // only a prohibited term: nothing to score
    ['**', []],
    ['+-', []],
    ['"unclosed', []],
    ['checkpoint~', ['memory/MEMORY.md#3', 'memory/playbook/reset.md#5']],
    ['+reset', ['memory/playbook/reset.md#5']],
  ] as const)('query %j is answered with its hits', (q, refs) => {
    expect(index.search(q).map((h) => h.ref)).toEqual(refs);
    expect(index.search(q, 5).map((h) => h.ref)).toEqual(refs);
  });

  it('--hard finds the playbook entry through "hard"', () => {
    expect(refs(index, '--hard')).toEqual(['memory/playbook/reset.md#5']);
  });

  it('operator-only queries return empty with empty: true', () => {
    for (const q of ['~', '^', '+', '-', '"', ':', '*', 'type:']) {
      expect(parseQuery(q).empty, q).toBe(true);
      expect(index.search(q), q).toEqual([]);
    }
  });

  it('--help, foo:bar and a~2^3 simply find nothing here', () => {
    expect(index.search('--help')).toEqual([]);
    expect(index.search('foo:bar')).toEqual([]);
    expect(index.search('a~2^3')).toEqual([]);
  });

  it('fast-check: search never throws on operator soup with letters, CJK and emoji', () => {
    const alphabet = [...'~^+-*:"\\ ()[]{}', ...'abcxyz', '東', '京', 'で', '한', '😀', '👍🏽', '\u0301', 'é'];
    const arb = fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }).map((a) => a.join(''));
    fc.assert(
      fc.property(arb, fc.option(fc.integer({ min: -3, max: 20 }), { nil: undefined }), (q, limit) => {
        const hits = index.search(q, limit);
        expect(Array.isArray(hits)).toBe(true);
        const p = parseQuery(q);
        expect(typeof p.empty).toBe('boolean');
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (q) => {
        expect(() => index.search(q)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});

describe('B03: non-English text is findable (keyword index on its own)', () => {
  const index = LexicalIndex.build([
    { ref: 'memory/DREAMS.md#1', text: '東京でミーティング' },
    { ref: 'memory/MEMORY.md#1', text: 'café über résumé' },
    { ref: 'memory/2026-01-02.md#2', text: 'met at the cafe downstairs' },
    { ref: 'memory/2026-01-03.md#2', text: 'صباح الخير يا صديقي' },
  ]);

  it('東京 and the full phrase find the Japanese note', () => {
    expect(refs(index, '東京')).toEqual(['memory/DREAMS.md#1']);
    expect(refs(index, '東京でミーティング')).toEqual(['memory/DREAMS.md#1']);
    expect(refs(index, 'ミーティング')).toEqual(['memory/DREAMS.md#1']);
  });

  it('a single CJK character prefix-matches the bigrams', () => {
    expect(refs(index, '東')).toEqual(['memory/DREAMS.md#1']);
  });

  it('café, über, résumé find the accented note', () => {
    for (const q of ['café', 'über', 'résumé', 'CAFÉ', 'cafe\u0301']) {
      expect(refs(index, q), q).toContain('memory/MEMORY.md#1');
    }
  });

  it('cafe finds the unaccented note (and, folded, the accented one)', () => {
    const r = refs(index, 'cafe');
    expect(r).toContain('memory/2026-01-02.md#2');
    expect(r).toContain('memory/MEMORY.md#1');
  });

  it('the exact accented form ranks the accented note first', () => {
    expect(refs(index, 'café')[0]).toBe('memory/MEMORY.md#1');
  });

  it('Arabic words are not trimmed away', () => {
    expect(refs(index, 'صديقي')).toEqual(['memory/2026-01-03.md#2']);
  });
});

describe('B04: stemming, prefixes and separators', () => {
  const index = LexicalIndex.build([
    { ref: 'p#1', text: 'The module loader is general purpose. Responses are application/json.' },
    { ref: 'p#2', text: 'Generated code lives in the build folder.' },
    { ref: 'p#3', text: 'Nothing relevant here.' },
  ]);

  it.each(['module', 'module*', 'general', 'genera*', 'json', 'modules', 'application', 'loader'])(
    '%s finds the entry',
    (q) => {
      expect(refs(index, q)).toContain('p#1');
    },
  );

  it('prefix results are a superset of exact results', () => {
    for (const w of ['module', 'general', 'json', 'generated', 'code', 'build', 'purpose', 'respons', 'gen']) {
      const exact = new Set(refs(index, w));
      const prefix = new Set(refs(index, `${w}*`));
      for (const r of exact) expect(prefix.has(r), `${w}* ⊇ ${w}`).toBe(true);
    }
    expect(new Set(refs(index, 'gen*'))).toEqual(new Set(['p#1', 'p#2']));
  });

  it('a prefix that is not a whole word still completes', () => {
    expect(refs(index, 'modu*')).toEqual(['p#1']);
    expect(refs(index, 'appl*')).toEqual(['p#1']);
  });
});

describe('code identifiers', () => {
  const index = LexicalIndex.build([
    { ref: 'a#1', text: 'call getUserName before rendering' },
    { ref: 'b#1', text: 'the max_pool_size setting' },
    { ref: 'c#1', text: 'edit src/db/pool.ts and config.yaml' },
  ]);

  it('camelCase parts and the whole', () => {
    expect(refs(index, 'getUserName')[0]).toBe('a#1');
    expect(refs(index, 'getusername')).toEqual(['a#1']);
    expect(refs(index, 'user')).toEqual(['a#1']);
    expect(refs(index, 'get_user_name')[0]).toBe('a#1');
  });

  it('snake_case parts and the whole', () => {
    expect(refs(index, 'maxPoolSize')[0]).toBe('b#1');
    expect(refs(index, 'size')).toEqual(['b#1']);
  });

  it('path parts', () => {
    expect(refs(index, 'pool.ts')[0]).toBe('c#1');
    expect(refs(index, 'yaml')).toEqual(['c#1']);
    expect(refs(index, 'src/db')).toEqual(['c#1']);
  });
});

describe('presence, fields, ordering', () => {
  const docs: LexicalDoc[] = [
    { ref: 'd1', text: 'postgres connection pool tuning' },
    { ref: 'd2', text: 'postgres backups nightly' },
    { ref: 'd3', text: 'sqlite for tests', title: 'Postgres alternative' },
    { ref: 'd4', text: 'unrelated', tags: ['postgres'] },
    { ref: 'd5', text: 'pool of workers', headings: ['Postgres'] },
  ];
  const index = LexicalIndex.build(docs);

  it('+required and -prohibited', () => {
    expect(new Set(refs(index, '+postgres pool'))).toEqual(new Set(['d1', 'd2', 'd3', 'd4', 'd5']));
    expect(refs(index, '+postgres pool').slice(0, 2).sort()).toEqual(['d1', 'd5']);
    expect(new Set(refs(index, '+postgres +pool'))).toEqual(new Set(['d1', 'd5']));
    expect(refs(index, 'postgres -pool')).not.toContain('d1');
    expect(refs(index, 'postgres -pool')).toContain('d2');
    expect(refs(index, '+nonexistentword postgres')).toEqual([]);
  });

  it('title and tags outrank body; headings count less than body', () => {
    const fielded = LexicalIndex.build([
      { ref: 'body', text: 'postgres notes', title: 'storage notes', tags: ['db'], headings: ['Storage'] },
      { ref: 'title', text: 'storage notes', title: 'postgres notes', tags: ['db'], headings: ['Storage'] },
      { ref: 'tag', text: 'storage notes', title: 'storage notes', tags: ['postgres'], headings: ['Storage'] },
      { ref: 'heading', text: 'storage notes', title: 'storage notes', tags: ['db'], headings: ['Postgres'] },
    ]);
    const r = refs(fielded, 'postgres');
    expect(new Set(r)).toEqual(new Set(['body', 'title', 'tag', 'heading']));
    expect(r.indexOf('title')).toBeLessThan(r.indexOf('body'));
    expect(r.indexOf('tag')).toBeLessThan(r.indexOf('body'));
    expect(r.at(-1)).toBe('heading');
    expect(new Set(refs(index, 'postgres'))).toEqual(new Set(['d1', 'd2', 'd3', 'd4', 'd5']));
  });

  it('sorted by score desc then ref asc; limit applies', () => {
    const tie = LexicalIndex.build([
      { ref: 'z', text: 'same words' },
      { ref: 'a', text: 'same words' },
      { ref: 'm', text: 'same words' },
    ]);
    expect(refs(tie, 'same')).toEqual(['a', 'm', 'z']);
    expect(tie.search('same', 2).map((h) => h.ref)).toEqual(['a', 'm']);
    expect(tie.search('same', 0)).toEqual([]);
    const hits = index.search('postgres pool');
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
  });

  it('a small limit over many matches (the bounded heap) keeps the order of the full sort, ties included', () => {
    // 300 matches, 40 of them tied on every score: a limit of 7 or 45 takes the heap, none the sort.
    const many = LexicalIndex.build(
      Array.from({ length: 300 }, (_, i) => ({
        ref: `r${(i * 7919) % 300}`,
        text: i % 10 === 0 ? 'same words here' : `same ${'filler '.repeat(1 + (i % 13))}words`,
      })),
    );
    const all = many.search('same words');
    expect(all).toHaveLength(300);
    for (const k of [1, 7, 45]) expect(many.search('same words', k)).toEqual(all.slice(0, k));
  });

  it('fast-check: any limit gives the first hits of the full ranking, and searches leave no scores behind', () => {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'eps'];
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 80 }),
        fc.array(fc.tuple(fc.subarray(words, { minLength: 1 }), fc.integer({ min: 1, max: 30 })), {
          minLength: 1,
          maxLength: 6,
        }),
        (texts, queries) => {
          const idx = LexicalIndex.build(texts.map((t, i) => ({ ref: `d${(i * 37) % 101}-${i}`, text: t.join(' ') })));
          // Each query twice, between others: a common word clears whole score arrays, a rare one key by key.
          for (const [terms, k] of [...queries, ...queries]) {
            const q = terms.join(' ');
            expect(idx.search(q, k)).toEqual(idx.search(q).slice(0, k));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('filters in the query are not applied by the index', () => {
    expect(refs(index, 'type:decision postgres')).toHaveLength(5);
  });

  it('an empty index and empty docs are fine', () => {
    const empty = LexicalIndex.build([]);
    expect(empty.size).toBe(0);
    expect(empty.search('anything')).toEqual([]);
    const blank = LexicalIndex.build([{ ref: 'x', text: '' }]);
    expect(blank.size).toBe(1);
    expect(blank.search('x')).toEqual([]);
  });

  it('duplicate refs are a caller bug', () => {
    expect(() =>
      LexicalIndex.build([
        { ref: 'x', text: 'a' },
        { ref: 'x', text: 'b' },
      ]),
    ).toThrow(/duplicate/);
  });
});

describe('toJSON / load', () => {
  const docs: LexicalDoc[] = [
    { ref: 'memory/MEMORY.md#1', text: 'café über résumé', title: 'Accents' },
    { ref: 'memory/DREAMS.md#1', text: '東京でミーティング' },
    { ref: 'p#1', text: 'The module loader is general purpose. Responses are application/json.', tags: ['loader'] },
    { ref: 'p#2', text: 'Use git reset --hard only after a checkpoint.', headings: ['Git', 'Safety'] },
    { ref: 'p#3', text: 'call getUserName; happy path', tags: ['api'] },
  ];
  const queries = [
    'café',
    'cafe',
    '東京',
    '東',
    'module*',
    'genera*',
    'json',
    '--hard',
    'getUserName',
    'happi*',
    'loader -json',
    '+git safety',
    'api',
  ];

  it('round-trips through JSON text with identical results', () => {
    const built = buildWithLunr(docs);
    const loaded = loadLunrJson(JSON.parse(JSON.stringify(lunrJson(built))));
    expect(loaded.index.size).toBe(built.index.size);
    for (const q of queries) expect(loaded.index.search(q), q).toEqual(built.index.search(q));
    expect(JSON.stringify(lunrJson(loaded))).toBe(JSON.stringify(lunrJson(built)));
  });

  it.each([
    ['null', null],
    ['a string', 'lexical'],
    ['another format', { format: 'other' }],
  ])('rejects %s with index.corrupt', (_label, json) => {
    expect(() => loadLunrJson(json)).toThrow(expect.objectContaining({ code: 'index.corrupt' }));
  });

  it('rejects wrong versions and damaged parts with index.corrupt', () => {
    const good = JSON.parse(JSON.stringify(lunrJson(buildWithLunr(docs)))) as Record<string, any>;
    const variants: Record<string, any>[] = [
      { ...good, version: 99 },
      { ...good, lunrVersion: '1.0.0' },
      { ...good, size: 3 },
      { ...good, vocab: good.vocab.slice(1) },
      { ...good, index: { ...good.index, fields: ['text'] } },
      { ...good, index: { ...good.index, invertedIndex: [['b', { _index: 0 }]] } },
      { ...good, index: { ...good.index, invertedIndex: [...good.index.invertedIndex].reverse() } },
      { ...good, index: { ...good.index, pipeline: ['not-registered'] } },
      { ...good, index: undefined },
    ];
    for (const v of variants) {
      let err: unknown;
      try {
        loadLunrJson(v);
      } catch (e) {
        err = e;
      }
      expect(isMemoryError(err, 'index.corrupt'), JSON.stringify(Object.keys(v))).toBe(true);
    }
  });
});

describe('scoring equals lunr index.query', () => {
  const words = [
    'postgres',
    'pool',
    'storage',
    'lunr',
    'index',
    'getUserName',
    'café',
    '東京',
    'module',
    'general',
    'json',
    'checkpoint',
  ];
  const docs: LexicalDoc[] = Array.from({ length: 60 }, (_, i) => ({
    ref: `memory/n${i}.md#${i % 7}`,
    text: Array.from({ length: 5 + (i % 9) }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' '),
    ...(i % 4 === 0 ? { title: words[i % words.length]! } : {}),
    ...(i % 5 === 0 ? { tags: [words[(i + 2) % words.length]!] } : {}),
    ...(i % 3 === 0 ? { headings: [words[(i + 5) % words.length]!] } : {}),
  }));
  const reference = buildWithLunr(docs);
  const index = reference.index;

  it.each([
    'postgres',
    'postgres pool',
    'gen*',
    '+storage lunr',
    'index -json',
    'getUserName',
    'café 東京',
    'mod* +checkpoint',
    'nothing',
  ])('%s', (q) => {
    const fast = index.search(q);
    const ref = searchWithLunr(reference, q);
    // Every query but 'nothing' must hit: an empty answer on both sides would prove nothing.
    expect(fast.length > 0).toBe(q !== 'nothing');
    expect(fast.map((h) => h.ref)).toEqual(ref.map((h) => h.ref));
    fast.forEach((h, i) => expect(h.score).toBeCloseTo(ref[i]!.score, 9));
    expect(index.search(q, 5)).toEqual(fast.slice(0, 5));
  });
});
