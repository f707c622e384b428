// Unit tests for the assembly of a recall answer (service/recall/recall.ts): the vector half's hits
// kept above the cosine floor and within the filters, a failing vector half turning the answer into
// keyword with the reason, the results built from fused hits (evidence span inside the chunk,
// snippet, rounded scores, entry, hidden and superseded marks, explain only on request), the hint for
// a query without words, the context block within its budget, and the use case over an opened
// workspace (stat walk or last snapshot, semantic half off, retrieval audit). Snapshot, vector half
// and workspace context are hand-built fakes (test/support/recall-snapshot.ts).
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type MemoryConfig } from '../../../src/core/config.js';
import type { IndexSnapshot } from '../../../src/engine/chunks/index-manager.js';
import { readAudit } from '../../../src/service/recall/audit.js';
import { recall, recallKeyword, recallSnapshot } from '../../../src/service/recall/recall.js';
import { DEFAULT_FUSION, type FusionSettings } from '../../../src/service/recall/types.js';
import type { MemoryContext } from '../../../src/service/shared/memory-context.js';
import { MemoryIndexStorage } from '../../support/memory-storage.js';
import { chunk, fakeSnapshot, fakeVectors, hitsOf } from '../../support/recall-snapshot.js';

const runbook = chunk(
  'runbook',
  [
    'Release steps:',
    'Build the image.',
    'Run the tests.',
    'Tag the commit.',
    'We deploy with blue-green releases.',
    'Watch the dashboards.',
    'Close the ticket.',
  ].join('\n'),
  { startLine: 10, kind: 'entry', entry: { id: 'runbook', type: 'decision', tags: ['ops'] } },
);
const old = chunk('old', 'We deploy by hand over ssh.', {
  kind: 'entry',
  entry: { id: 'old', type: 'decision', tags: [] },
});
const newer = chunk('newer', 'We deploy with the pipeline now.', {
  kind: 'entry',
  entry: { id: 'newer', type: 'decision', tags: [] },
  supersedes: ['old'],
});
const archived = chunk('archived', 'Deploy notes from 2019.', { hidden: 'archived' });
const chunks = [runbook, old, newer, archived];
const keywordHits = hitsOf(['runbook', 8], ['newer', 6], ['old', 5], ['archived', 4]);

const hybrid = (over: Partial<FusionSettings> = {}): FusionSettings => ({
  ...DEFAULT_FUSION,
  method: 'score',
  minVectorScore: 0.25,
  vectorRescore: 0,
  ...over,
});

describe('recall assembly: results from the fused hits', () => {
  it('keyword results: best first, cut to the limit, evidence span inside the chunk, snippet and rounded scores', () => {
    const res = recallKeyword(fakeSnapshot(chunks, keywordHits), 'deploy blue-green', { limit: 2 });
    expect(res.mode).toBe('keyword');
    expect(res.results.map((r) => r.path)).toEqual(['memory/runbook.md', 'memory/newer.md']);
    const [r] = res.results;
    expect(r!.chunk).toEqual({ startLine: 10, endLine: 16 });
    // The evidence span holds the matching line (line 14) and stays inside the chunk, at most 5 lines.
    expect(r!.startLine).toBeGreaterThanOrEqual(10);
    expect(r!.startLine).toBeLessThanOrEqual(14);
    expect(r!.endLine).toBeGreaterThanOrEqual(14);
    expect(r!.endLine).toBeLessThanOrEqual(16);
    expect(r!.endLine - r!.startLine + 1).toBeLessThanOrEqual(5);
    expect(r!.snippet).toContain('blue-green');
    expect(r!.scores).toEqual({ keyword: 8, vector: null });
    expect(r!.entry).toEqual({ id: 'runbook', type: 'decision', tags: ['ops'] });
    expect(r!.explain).toBeUndefined();
    expect(res.hint).toBeUndefined();
  });

  it('hidden and superseded memories come back only with includeHidden, marked; explain on request', () => {
    const snap = fakeSnapshot(chunks, keywordHits);
    expect(recallKeyword(snap, 'deploy').results.map((r) => r.entry?.id ?? r.path)).toEqual(['runbook', 'newer']);
    const all = recallKeyword(snap, 'deploy', { includeHidden: true, explain: true });
    const byPath = new Map(all.results.map((r) => [r.path, r]));
    expect(byPath.get('memory/old.md')).toMatchObject({ hidden: 'superseded', supersededBy: ['newer'] });
    expect(byPath.get('memory/archived.md')).toMatchObject({ hidden: 'archived' });
    expect(byPath.get('memory/runbook.md')!.explain).toEqual({
      keywordRank: 1,
      keywordScore: 8,
      vectorRank: null,
      vectorScore: null,
    });
  });

  it('a query with no searchable words gives no results and a hint', () => {
    const res = recallKeyword(fakeSnapshot(chunks, keywordHits), '?! --');
    expect(res.results).toEqual([]);
    expect(res.hint).toMatch(/no searchable words/);
  });

  it('with a budget the context block holds the best line and stays within the budget', () => {
    const res = recallKeyword(fakeSnapshot(chunks, keywordHits), 'deploy blue-green', { budget: 300 });
    expect(res.context!.budget).toBe(300);
    expect(res.context!.bytes).toBeLessThanOrEqual(300);
    expect(Buffer.byteLength(res.context!.text)).toBe(res.context!.bytes);
    expect(res.context!.text).toContain('We deploy with blue-green releases.');
  });
});

describe('recall assembly: the vector half', () => {
  const vkeys = { 'v-runbook': 0.9, 'v-old': 0.6, 'v-newer': 0.5, 'v-archived': 0.2 };

  it('vector hits below the cosine floor, hidden or outside the filters are not results', async () => {
    const snap = fakeSnapshot(chunks, []);
    const res = await recallSnapshot(snap, 'how do we ship', { mode: 'vector' }, fakeVectors(vkeys), hybrid());
    expect(res.mode).toBe('vector');
    // old is superseded (hidden), archived is hidden and below the floor.
    expect(res.results.map((r) => [r.path, r.scores.vector])).toEqual([
      ['memory/runbook.md', 0.9],
      ['memory/newer.md', 0.5],
    ]);
    const floor = await recallSnapshot(
      snap,
      'how do we ship',
      { mode: 'vector' },
      fakeVectors(vkeys),
      hybrid({ minVectorScore: 0.7 }),
    );
    expect(floor.results.map((r) => r.path)).toEqual(['memory/runbook.md']);
    const typed = await recallSnapshot(
      fakeSnapshot(
        [...chunks, chunk('w', 'ship on tuesdays', { kind: 'entry', entry: { id: 'w', type: 'warning', tags: [] } })],
        [],
      ),
      'how do we ship',
      { mode: 'vector', types: ['warning'] },
      fakeVectors({ ...vkeys, 'v-w': 0.4 }),
      hybrid(),
    );
    expect(typed.results.map((r) => r.path)).toEqual(['memory/w.md']);
  });

  it('a vector half that fails at query time answers by keyword with its reason', async () => {
    const res = await recallSnapshot(
      fakeSnapshot(chunks, keywordHits),
      'deploy blue-green',
      { mode: 'hybrid' },
      fakeVectors(undefined),
      hybrid(),
    );
    expect(res.mode).toBe('keyword');
    expect(res.degraded).toBe('semantic recall failed');
    expect(res.results[0]!.path).toBe('memory/runbook.md');
  });

  it('vector mode ranks by cosine without a keyword search; a failing vector half still answers by keyword', async () => {
    const snap = fakeSnapshot(chunks, keywordHits);
    const res = await recallSnapshot(snap, 'deploy blue-green', { mode: 'vector' }, fakeVectors(vkeys), hybrid());
    expect(res.mode).toBe('vector');
    expect(res.results.length).toBeGreaterThan(0);
    expect(snap.searches).toEqual([]);
    const failed = fakeSnapshot(chunks, keywordHits);
    const fallback = await recallSnapshot(
      failed,
      'deploy blue-green',
      { mode: 'vector' },
      fakeVectors(undefined),
      hybrid(),
    );
    expect(fallback).toMatchObject({ mode: 'keyword', degraded: 'semantic recall failed' });
    expect(fallback.results[0]!.path).toBe('memory/runbook.md');
    expect(failed.searches.length).toBeGreaterThan(0);
  });

  it('the caller’s note (vectors still missing) is reported on a hybrid answer only', async () => {
    const note = { degraded: '3 of 4 chunks are embedded' };
    const snap = fakeSnapshot(chunks, keywordHits);
    const h = await recallSnapshot(snap, 'deploy blue-green', { mode: 'hybrid' }, fakeVectors(vkeys), hybrid(), note);
    expect(h).toMatchObject({ mode: 'hybrid', degraded: '3 of 4 chunks are embedded' });
    const k = await recallSnapshot(snap, 'deploy blue-green', { mode: 'keyword' }, fakeVectors(vkeys), hybrid(), note);
    expect(k.degraded).toBeNull();
  });

  it('vectorRescore asks for the cosine of the best keyword candidates too', async () => {
    const vectors = fakeVectors(vkeys);
    await recallSnapshot(
      fakeSnapshot(chunks, keywordHits),
      'deploy blue-green',
      { mode: 'hybrid' },
      vectors,
      hybrid({ vectorRescore: 2 }),
    );
    expect(vectors.calls).toEqual([{ k: 100, also: ['v-runbook', 'v-newer'] }]);
  });
});

describe('recall assembly: the vector weight follows the spread of the top cosines', () => {
  // By keyword runbook leads newer (8 against 6); by cosine newer leads far (0.9 against 0.3).
  const vkeys = { 'v-runbook': 0.3, 'v-newer': 0.9, 'v-old': 0.6, 'v-archived': 0.2 };
  const first = async (vectorSpread: FusionSettings['vectorSpread']) =>
    (
      await recallSnapshot(
        fakeSnapshot(chunks, keywordHits),
        'deploy',
        { mode: 'hybrid' },
        fakeVectors(vkeys),
        hybrid({ weights: { keyword: 1, vector: 0.3 }, keywordConfidence: 'none', vectorSpread }),
      )
    ).results[0]!.path;

  it('the spread is taken over the raw hits, below the floor and hidden ones included', async () => {
    // depth 2: 0.9 - 0.6 = 0.3, three times the margin: vector weight 0.3 x 2 = 0.6, newer first.
    expect(await first({ share: 0.5, margin: 0.1, depth: 2 })).toBe('memory/newer.md');
    // The same spread against a margin of 1: weight 0.3 x 0.65, the keyword lead stands.
    expect(await first({ share: 0.5, margin: 1, depth: 2 })).toBe('memory/runbook.md');
  });

  it('fewer hits than depth, or share 0, keep the configured weight', async () => {
    // Weight 0.3: newer 0.75 + 0.3 against runbook 1 + 0.3 x 0.08.
    expect(await first({ share: 0.5, margin: 1, depth: 5 })).toBe('memory/newer.md');
    expect(await first({ share: 0, margin: 1, depth: 2 })).toBe('memory/newer.md');
  });
});

describe("recall assembly: the query is also embedded without the memory's common words", () => {
  // "deploy" stands in 4 of the 4 chunks (idf below ln 2), "blue-green" in one.
  const common = (snap: IndexSnapshot): IndexSnapshot => ({
    ...snap,
    lexical: { ...snap.lexical, idf: (t: string) => (t === 'deploy' ? 0.1 : 1.5) },
  });
  const asked = async (vectorCommonWords: number, query = 'how do we deploy blue-green?') => {
    const vectors = fakeVectors({ 'v-runbook': 0.8 });
    await recallSnapshot(
      common(fakeSnapshot(chunks, keywordHits)),
      query,
      { mode: 'hybrid' },
      vectors,
      hybrid({ vectorCommonWords }),
    );
    return vectors.queries;
  };

  it('searches with the query and the query without the common word', async () => {
    expect(await asked(0.5)).toEqual([['how do we deploy blue-green?', 'how do we blue-green?']]);
  });

  it('searches with the query alone when off or when every word is common', async () => {
    expect(await asked(0)).toEqual(['how do we deploy blue-green?']);
    expect(await asked(0.5, 'deploy?')).toEqual(['deploy?']);
  });
});

describe('recall use case over an opened workspace', () => {
  const config = (over: Partial<MemoryConfig['recall']> = {}): MemoryConfig => ({
    ...DEFAULT_CONFIG,
    recall: { ...DEFAULT_CONFIG.recall, ...over },
  });
  const context = (snap: IndexSnapshot, freshnessMode: 'scan' | 'manual', cfg: MemoryConfig) => {
    const walks: number[] = [];
    const storage = new MemoryIndexStorage();
    const ctx = {
      config: cfg,
      storage,
      clock: { now: () => new Date('2026-05-01T12:00:00Z') },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      semantic: undefined,
      freshness: { snapshot: snap },
      freshnessMode,
      answerSnapshot: async () => {
        walks.push(1);
        return snap;
      },
    } as unknown as MemoryContext;
    return { ctx, walks, storage };
  };

  it('one-shot (scan) walks the files first; a host (manual) answers from its last snapshot', async () => {
    const snap = fakeSnapshot(chunks, keywordHits);
    const scan = context(snap, 'scan', config());
    await recall(scan.ctx, 'deploy');
    expect(scan.walks).toHaveLength(1);
    const manual = context(snap, 'manual', config());
    await recall(manual.ctx, 'deploy');
    expect(manual.walks).toHaveLength(0);
  });

  it('semantic recall off: a hybrid request is answered by keyword without a degraded note; config limit applies', async () => {
    const { ctx } = context(fakeSnapshot(chunks, keywordHits), 'manual', config({ limit: 1 }));
    const res = await recall(ctx, 'deploy blue-green', { mode: 'hybrid' });
    expect(res).toMatchObject({ mode: 'keyword', degraded: null });
    expect(res.results).toHaveLength(1);
    expect(typeof res.tookMs).toBe('number');
  });

  it('the retrieval audit records agent-facing recalls (not a person’s), only when recall.audit is on', async () => {
    const on = context(fakeSnapshot(chunks, keywordHits), 'manual', config({ audit: true }));
    await recall(on.ctx, 'deploy by hand', { limit: 1 });
    await recall(on.ctx, 'deploy blue-green', { limit: 1, audience: 'agent', channel: 'mcp' });
    const entries = await readAudit(on.storage);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      time: '2026-05-01T12:00:00.000Z',
      channel: 'mcp',
      query: 'deploy blue-green',
      mode: 'keyword',
      results: [{ path: 'memory/runbook.md' }],
    });
    const off = context(fakeSnapshot(chunks, keywordHits), 'manual', config({ audit: false }));
    await recall(off.ctx, 'deploy', { audience: 'injected' });
    expect(await readAudit(off.storage)).toEqual([]);
  });
});
