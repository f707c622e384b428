// ACE reflector, curator, front-matter edits, dreams planner and unified diff, over documents parsed
// by the real parser.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/core/config.js';
import type { DocKind, MemoryDoc } from '../../../src/core/document.js';
import { classify, layoutPreset } from '../../../src/core/layout.js';
import { toRelPath } from '../../../src/core/paths.js';
import { MemoryWorkspace } from '../../../src/core/workspace.js';
import { curate, playbookSummaries, qualityProblem, validateDeltas } from '../../../src/ace/curator.js';
import { applyAction, parseDreams, withProposals, withProposalStatus } from '../../../src/ace/dreams-document.js';
import { planDreams } from '../../../src/ace/dreams.js';
import { withFrontMatterKey, withListItem } from '../../../src/parse/front-matter-edit.js';
import { fileKnowledge, listPlaybook, recommendFiles, tagUsage } from '../../../src/ace/knowledge.js';
import { extractInsights, selectRelated } from '../../../src/ace/reflector.js';
import { unifiedDiff } from '../../../src/ace/unified-diff.js';
import { parseDocument } from '../../../src/parse/parse-document.js';
import { guidanceRepeats, repeatOf } from '../../../src/service/shared/dedupe-policy.js';

const layout = layoutPreset('default');
const applyActionWith = (a: Parameters<typeof applyAction>[0], d: Parameters<typeof applyAction>[1]) =>
  applyAction(a, d, withFrontMatterKey);
const doc = (path: string, text: string) =>
  parseDocument({ path: toRelPath(path), kind: classify(path, layout) as DocKind, text });
const ws = (files: Record<string, string>) => new MemoryWorkspace(Object.entries(files).map(([p, t]) => doc(p, t)));

const PB = (id: string, body: string, extra = '') =>
  `---\nid: ${id}\ncategory: testing\npriority: 5\ntags: [testing]\n${extra}active: true\n---\n\n${body}\n`;

describe('front-matter edits', () => {
  it('adds to flow lists, block lists and missing keys, keeping the rest of the file', () => {
    expect(withListItem(doc('memory/playbook/a.md', PB('a', 'x', 'supporting: []\n')), 'supporting', 'm1')).toContain(
      'supporting: [m1]\n',
    );
    expect(withListItem(doc('memory/playbook/a.md', PB('a', 'x', 'supporting: [m0]\n')), 'supporting', 'm1')).toContain(
      'supporting: [m0, m1]\n',
    );
    const block = withListItem(doc('memory/playbook/a.md', PB('a', 'x', 'supporting:\n  - m0\n')), 'supporting', 'm1')!;
    expect(block).toContain('supporting:\n  - m0\n  - m1\nactive: true');
    const missing = withListItem(doc('memory/playbook/a.md', PB('a', 'x')), 'supporting', 'm1')!;
    expect(missing).toContain('active: true\nsupporting: [m1]\n---\n\nx\n');
    const crlf = withListItem(doc('memory/playbook/a.md', PB('a', 'x').replace(/\n/g, '\r\n')), 'supporting', 'm1')!;
    expect(crlf).toContain('supporting: [m1]\r\n---\r\n');
    // Already there: unchanged.
    const d = doc('memory/playbook/a.md', PB('a', 'x', 'supporting: [m1]\n'));
    expect(withListItem(d, 'supporting', 'm1')).toBe(d.text);
    expect(withListItem(doc('memory/MEMORY.md', '# Memory\n'), 'supporting', 'm1')).toBeUndefined();
  });

  it('sets scalars in place or adds them', () => {
    expect(withFrontMatterKey(doc('memory/playbook/a.md', PB('a', 'x')), 'active', false)).toContain('active: false\n');
    expect(withFrontMatterKey(doc('memory/playbook/a.md', PB('a', 'x')), 'updated', '2026-11-29')).toContain(
      'active: true\nupdated: 2026-11-29\n---',
    );
    // Quoted by the YAML library's rules (parse/serialize.ts yamlFlowValue), and read back as written.
    const titled = withFrontMatterKey(doc('memory/playbook/a.md', PB('a', 'x')), 'title', 'yes: a "b"')!;
    expect(titled).toContain(`title: 'yes: a "b"'\n`);
    expect(doc('memory/playbook/a.md', titled).meta.title).toBe('yes: a "b"');
  });
});

describe('reflector', () => {
  it('extracts root cause, gotcha and pattern insights', () => {
    const ins = extractInsights(
      {
        goal: 'Fix the nightly export timeout',
        result:
          'The export timed out because it streamed the whole table without a cursor. Switched to keyset pagination.',
        feedback: 'Never stream whole tables in jobs. Next time start with keyset pagination for exports.',
      },
      'error_fix',
    );
    expect(ins.map((i) => i.kind)).toEqual(['gotcha', 'pattern', 'root_cause']);
    expect(ins[2]!.text).toBe(
      'Fix the nightly export timeout → The export timed out because it streamed the whole table without a cursor.',
    );
  });

  it('selects related entries only when they stand on their own', () => {
    const hits = [
      { id: 'a', path: 'a.md', score: 0.03, keyword: 2, vector: 0.62, text: 'unrelated words entirely' },
      { id: 'b', path: 'b.md', score: 0.02, keyword: 1, vector: 0.35, text: 'queue tests need real timers' },
      { id: 'c', path: 'c.md', score: 0.01, keyword: null, vector: 0.2, text: 'queue timers' },
      { id: 'b', path: 'b.md', score: 0.01, keyword: 1, vector: 0.35, text: 'queue tests need real timers' },
    ];
    expect(selectRelated('flaky queue test with fake timers', hits).map((r) => r.id)).toEqual(['a', 'b']);
  });
});

describe('curator', () => {
  const docs = [
    doc(
      'memory/playbook/real-timers.md',
      PB(
        'real-timers',
        'Queue tests must use real timers: fake timers freeze the BullMQ clock and jobs never become due.',
      ),
    ),
    doc('memory/playbook/old.md', PB('old', 'Run the export with OFFSET pagination in batches of one thousand rows.')),
  ];
  const playbook = playbookSummaries(docs);
  // Repeats are the one dedupe policy's answer (by text here: no vectors).
  const repeats = guidanceRepeats(docs, DEFAULT_CONFIG.dedupe);

  it('covers known guidance, adds new guidance, soft-deletes what feedback retires', () => {
    const plan = curate({
      memoryId: 'm1',
      type: 'learning',
      tags: ['exports'],
      insights: [
        {
          // The guidance of real-timers again (same words): a repeat by the policy, no delta.
          kind: 'gotcha',
          text: 'Queue tests must use real timers; fake timers freeze the BullMQ clock and jobs never become due.',
          from: 'feedback',
        },
        {
          kind: 'pattern',
          text: 'Use keyset pagination on (created_at, id) for exports instead of offsets.',
          from: 'result',
        },
        {
          kind: 'pattern',
          text: 'Export pagination batches of one thousand rows are too small for accounts with millions of rows.',
          from: 'result',
        },
      ],
      related: [{ id: 'old', path: 'memory/playbook/old.md', score: 1, shared: [], vector: 0.7 }],
      playbook,
      repeats,
      feedback: 'The old entry is obsolete now that exports use keyset pagination.',
    });
    expect(plan.deltas.map((d) => `${d.op}:${d.id}`)).toEqual([
      'delete:old',
      'add:use-keyset-pagination-on-created-at-id-for',
      'add:export-pagination-batches-of-one-thousand-rows-are',
    ]);
    const add = plan.deltas[1]!;
    expect(add).toMatchObject({ op: 'add', category: 'patterns', priority: 5, supporting: ['m1'] });
  });

  it('adds related guidance the dedupe policy does not call a repeat', () => {
    // Few words in common with real-timers (Jaccard below dedupe.jaccard): not already in the playbook.
    const plan = curate({
      memoryId: 'm1',
      type: 'learning',
      tags: [],
      insights: [
        {
          kind: 'gotcha',
          text: 'Never use fake timers in queue tests; BullMQ jobs never become due.',
          from: 'feedback',
        },
      ],
      related: [],
      playbook,
      repeats,
    });
    expect(plan.deltas.map((d) => `${d.op}:${d.id}`)).toEqual(['add:never-use-fake-timers-in-queue-tests-bullmq']);
  });

  it('validation rejects short text, duplicates and unknown targets', () => {
    const add = (id: string, text: string) => ({
      op: 'add' as const,
      id,
      category: 'gotchas' as const,
      priority: 5,
      title: id,
      text,
      tags: [],
      supporting: ['m'],
      reason: 'r',
    });
    const res = validateDeltas(
      [
        add('short', 'Too short to be guidance.'),
        add('dup', 'Queue tests must use real timers: fake timers freeze the BullMQ clock and jobs never become due.'),
        add('fresh', 'Rotate database passwords only together with a PgBouncer restart, or connections fail.'),
        add('fresh2', 'Rotate database passwords only together with a PgBouncer restart, or connections fail!'),
        { op: 'delete', id: 'missing', path: 'x.md', reason: 'r' },
      ],
      playbook,
      repeats,
    );
    expect(res.deltas.map((d) => d.id)).toEqual(['fresh']);
    expect(res.rejected.map((r) => r.reason)).toEqual([
      'too short (25 characters, at least 40)',
      'duplicate of playbook entry real-timers',
      'duplicate of another new entry',
      'no playbook entry missing',
    ]);
    expect(
      qualityProblem(
        'const value = compute(alpha[0]) { return $beta; } <gamma>; delta = (epsilon); zeta = [1]; more(theta);',
      ),
    ).toBe('mostly code');
  });
});

describe('dreams', () => {
  // Merges ask the one dedupe policy (by text here: no vectors).
  const byPolicy = (older: MemoryDoc, newer: MemoryDoc) => repeatOf(older, newer, DEFAULT_CONFIG.dedupe);
  const files = {
    'memory/MEMORY.md': '# Memory\n\n## Facts\n\n- We deploy on Tuesdays only.\n',
    'memory/2026-01-01.md':
      '# 2026-01-01\n\n- 09:00 [learning] Webhook retries need random jitter so workers do not retry together.\n- We deploy on Tuesdays only, never on Fridays.\n',
    'memory/2026-01-02.md':
      '# 2026-01-02\n\n- 10:00 Added jitter to webhook retries; workers no longer retry together.\n',
    'memory/entries/a.md':
      '---\nid: a\ntype: learning\ncreated: 2025-01-01\n---\n\nThe connection pool holds twenty connections per worker process.\n',
    'memory/entries/b.md':
      '---\nid: b\ntype: learning\ncreated: 2026-01-05\nsupersedes: [c]\nfiles: [src/gone.ts]\n---\n\nThe connection pool holds twenty connections per worker process!\n',
    'memory/entries/c.md': '---\nid: c\ntype: decision\ncreated: 2026-01-03\n---\n\nUse ten connections.\n',
  };

  it('plans promotions, merges and retirements with evidence; skips covered ones', () => {
    const w = ws(files);
    const ps = planDreams(w, {
      now: new Date('2026-02-01T00:00:00Z'),
      longTermPath: 'memory/MEMORY.md',
      exists: () => false,
      staleDays: 30,
      repeatOf: byPolicy,
    });
    expect(ps.map((p) => `${p.kind} ${p.title} @ ${p.evidence.map((e) => `${e.path}:${e.line}`).join(',')}`)).toEqual([
      'promotion promote "Webhook retries need random jitter so workers do not retry together" @ memory/2026-01-01.md:3,memory/2026-01-02.md:3',
      'merge merge b into a @ memory/entries/a.md:1,memory/entries/b.md:1',
      'retirement retire c (superseded by b) @ memory/entries/b.md:5,memory/entries/c.md:1',
      'retirement archive b (its code is gone) @ memory/entries/b.md:6',
      'retirement archive a (stale) @ memory/entries/a.md:4',
    ]);
    // Rendered, parsed back, and not proposed again.
    const text = withProposals(undefined, ps);
    const parsed = parseDreams(text);
    expect(
      parsed.map((p) => ({ id: p.id, kind: p.kind, status: p.status, evidence: p.evidence, action: p.action })),
    ).toEqual(ps.map((p) => ({ id: p.id, kind: p.kind, status: p.status, evidence: p.evidence, action: p.action })));
    expect(
      planDreams(
        w,
        {
          now: new Date('2026-02-01T00:00:00Z'),
          longTermPath: 'memory/MEMORY.md',
          exists: () => false,
          staleDays: 30,
          repeatOf: byPolicy,
        },
        parsed,
      ),
    ).toEqual([]);
    const rejected = withProposalStatus(text, ps[0]!.id, 'rejected', 'no')!;
    expect(parseDreams(rejected)[0]!.status).toBe('rejected');
  });

  it('applies actions as minimal edits', () => {
    const w = ws(files);
    const append = applyActionWith(
      { type: 'append', path: 'memory/MEMORY.md', section: 'Promoted', text: 'Jitter webhook retries.' },
      w.tryGet(toRelPath('memory/MEMORY.md')),
    );
    expect(append).toEqual({
      text: '# Memory\n\n## Facts\n\n- We deploy on Tuesdays only.\n\n## Promoted\n\n- Jitter webhook retries.\n',
    });
    const into = applyActionWith(
      { type: 'append', path: 'memory/MEMORY.md', section: 'Facts', text: 'Second fact.' },
      w.tryGet(toRelPath('memory/MEMORY.md')),
    );
    expect(into).toEqual({ text: '# Memory\n\n## Facts\n\n- We deploy on Tuesdays only.\n- Second fact.\n' });
    expect(
      applyActionWith(
        { type: 'status', path: 'memory/entries/c.md', status: 'superseded' },
        w.tryGet(toRelPath('memory/entries/c.md')),
      ),
    ).toEqual({
      text: files['memory/entries/c.md'].replace('created: 2026-01-03\n', 'created: 2026-01-03\nstatus: superseded\n'),
    });
    expect(applyActionWith({ type: 'duplicate', path: 'memory/entries/x.md', of: 'a' }, undefined)).toEqual({
      problem: 'memory/entries/x.md does not exist any more',
    });
  });
});

describe('knowledge views', () => {
  const w = ws({
    'memory/entries/a.md':
      '---\nid: a\ntype: error_fix\ntags: [db, pool]\ncreated: 2026-01-01\nfiles:\n  - { path: src/db/pool.ts, relation: modified, lines: [1, 9] }\n  - src/db/index.ts\n---\n\nPool fix.\n',
    'memory/entries/b.md':
      '---\nid: b\ntype: learning\ntags: [db]\ncreated: 2026-01-02\nfiles: [src/db/pool.ts, src/app.ts]\n---\n\nPool sizing.\n',
    'memory/playbook/p.md': PB('p', 'Keep `src/db/pool.ts` small.', 'supporting: [a]\n'),
    'memory/playbook/q.md': PB('q', 'Other.')
      .replace('priority: 5', 'priority: 9')
      .replace('active: true', 'active: false'),
    'memory/MEMORY.md': '# Memory\n\n- The pool lives in `src/db/pool.ts`.\n',
  });

  it('file knowledge: linked memories, playbook, mentions, co-mentioned files', () => {
    const k = fileKnowledge(w, './src/db/pool.ts');
    expect(k.memories.map((m) => `${m.id}:${m.relation}`)).toEqual(['b:referenced', 'a:modified']);
    expect(k.playbook.map((p) => `${p.id}:${p.via}`)).toEqual(['p:supporting']);
    expect(k.mentions).toEqual([{ path: 'memory/MEMORY.md', line: 3, text: '- The pool lives in `src/db/pool.ts`.' }]);
    expect(k.relatedFiles).toEqual([
      { path: 'src/app.ts', count: 1 },
      { path: 'src/db/index.ts', count: 1 },
    ]);
    expect(fileKnowledge(w, 'src/db').counts.memories).toBe(2);
    expect(fileKnowledge(w, 'src/**/*.ts').counts.memories).toBe(2);
  });

  it('playbook by priority, tags by usage, recommended files by rank', () => {
    expect(listPlaybook(w).map((p) => p.id)).toEqual(['p']);
    expect(listPlaybook(w, { includeInactive: true }).map((p) => p.id)).toEqual(['q', 'p']);
    expect(tagUsage(w).slice(0, 2)).toEqual(
      [
        { tag: 'testing', count: 2, entries: 0, playbook: 2 },
        { tag: 'db', count: 2, entries: 2, playbook: 0 },
      ].sort((x, y) => y.count - x.count || x.tag.localeCompare(y.tag)),
    );
    expect(
      recommendFiles(
        [{ path: 'memory/entries/a.md' }, { path: 'memory/MEMORY.md', snippet: 'see `src/db/pool.ts`' }],
        w,
      ).map((f) => f.path),
    ).toEqual(['src/db/pool.ts', 'src/db/index.ts']);
  });
});

describe('unifiedDiff', () => {
  it('renders hunks with context and line numbers', () => {
    const a = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const b = 'a\nb\nc\nd\nX\ne\nf\ng\nh\n';
    expect(unifiedDiff('m.md', a, b)).toBe('--- a/m.md\n+++ b/m.md\n@@ -2,6 +2,7 @@\n b\n c\n d\n+X\n e\n f\n g\n');
    expect(unifiedDiff('m.md', a, a)).toBe('');
    expect(unifiedDiff('n.md', undefined, 'x\n')).toBe('--- /dev/null\n+++ b/n.md\n@@ -0,0 +1,1 @@\n+x\n');
  });
});

describe('curator update', () => {
  it('appends an insight that refines a related entry', () => {
    const pool = [
      doc('memory/playbook/pool.md', PB('pool', 'Cap the PostgreSQL pool at twenty connections per worker process.')),
    ];
    const playbook = playbookSummaries(pool);
    const plan = curate({
      memoryId: 'm2',
      type: 'learning',
      tags: [],
      insights: [
        {
          kind: 'pattern',
          text: 'Put PgBouncer in transaction mode in front of the pool so deploy overlaps do not exhaust connections.',
          from: 'result',
        },
      ],
      related: [{ id: 'pool', path: 'memory/playbook/pool.md', score: 1, shared: ['pool'], vector: 0.6 }],
      playbook,
      repeats: guidanceRepeats(pool, DEFAULT_CONFIG.dedupe),
    });
    expect(plan.deltas).toEqual([
      {
        op: 'update',
        id: 'pool',
        path: 'memory/playbook/pool.md',
        append:
          '- Put PgBouncer in transaction mode in front of the pool so deploy overlaps do not exhaust connections. ([[m2]])',
        reason: 'pattern from m2 refines pool',
      },
    ]);
  });
});
