// continuity/: CURRENT_STATE.md parsing, placeholders, the setext `---` case, rendering (EOL/BOM kept,
// untouched sections byte-identical), validation codes, snapshot budget and freshness, archive,
// handoff and absorb.
import { describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import { toRelPath } from '../../../src/core/paths.js';
import { appendToDaily, archiveBlock } from '../../../src/continuity/archive.js';
import { absorbResults, handoffSeed } from '../../../src/continuity/handoff.js';
import { parseState } from '../../../src/continuity/parse-state.js';
import {
  applyStateUpdate,
  changedFields,
  renderFreshState,
  renderState,
} from '../../../src/continuity/render-state.js';
import {
  EMPTY_FIELDS,
  estimateTokens,
  formatTimestamp,
  isPlaceholder,
  parseTimestamp,
} from '../../../src/continuity/sections.js';
import { snapshotState } from '../../../src/continuity/snapshot.js';
import { validateState } from '../../../src/continuity/validate-state.js';

const PATH = toRelPath('memory/CURRENT_STATE.md');
const NOW = new Date('2026-11-27T18:00:00+01:00');
const opts = { now: NOW, staleAfterHours: 24, maxTokens: 300 };

const DEMO = `# Current State

> Last updated: 2026-11-27T16:40:00+01:00

## Objective

Cut p95 latency of \`GET /v2/shipments/:id\` below 120 ms.

## Current Step

Profiling the carrier-status join.

## Key Decisions

- Cache carrier status in Redis for 60 s.
- Keep the response shape unchanged; no API version bump.

## Next Action

Write a benchmark for \`findWithEvents\` with 10k events.

## Blockers

None

## Unsurfaced Results

- The events table lacks an index on \`(shipment_id, created_at)\`.
`;

const TEMPLATE = renderFreshState(EMPTY_FIELDS, '2026-11-27T09:00:00Z');

const codes = (text: string, now = NOW) =>
  validateState(PATH, parseState(text), { now, staleAfterHours: 24 }).map((d) => d.code);

describe('parseState', () => {
  it('reads the six sections and the timestamp', () => {
    const p = parseState(DEMO);
    expect(p.fields.objective).toBe('Cut p95 latency of `GET /v2/shipments/:id` below 120 ms.');
    expect(p.fields.step).toBe('Profiling the carrier-status join.');
    expect(p.fields.decisions).toEqual([
      'Cache carrier status in Redis for 60 s.',
      'Keep the response shape unchanged; no API version bump.',
    ]);
    expect(p.fields.blockers).toEqual([]);
    expect(p.fields.results).toHaveLength(1);
    expect(p.updated?.raw).toBe('2026-11-27T16:40:00+01:00');
    expect(p.updated?.date?.toISOString()).toBe('2026-11-27T15:40:00.000Z');
    expect(codes(DEMO)).toEqual([]);
  });

  it('placeholders (None, idle, n/a, -, template text) are not content', () => {
    for (const v of [
      'None',
      'none.',
      'idle',
      'n/a',
      'N/A',
      '-',
      '—',
      '_None_',
      '*idle*',
      'TBD',
      '<objective>',
      '[Describe the objective]',
      '<!-- what are we doing? -->',
      'No active task',
      '',
    ]) {
      expect(isPlaceholder(v), v).toBe(true);
    }
    for (const v of [
      'Ship the release',
      'Write a benchmark for findWithEvents',
      'None of the carriers send time zones',
    ]) {
      expect(isPlaceholder(v), v).toBe(false);
    }
    const idle = parseState(
      TEMPLATE.replace('## Objective\n\nNone', '## Objective\n\nidle').replace(
        '## Blockers\n\nNone',
        '## Blockers\n\n- n/a\n- -',
      ),
    );
    expect(idle.fields).toEqual(EMPTY_FIELDS);
    expect(snapshotState(idle, opts)).toEqual({
      active: false,
      freshness: 'fresh',
      updated: '2026-11-27T09:00:00Z',
      text: '',
    });
  });

  it('template prompt text reads as empty and is reported', () => {
    const t = DEMO.replace('Profiling the carrier-status join.', '<!-- What are you doing right now? -->');
    const p = parseState(t);
    expect(p.fields.step).toBe('');
    expect(p.templateText).toEqual(['Current Step']);
    expect(codes(t)).toEqual([DiagnosticCode.statePlaceholder]);
  });

  it('a text line followed by --- stays in its section and is a diagnostic, not a heading', () => {
    const t = DEMO.replace(
      'Profiling the carrier-status join.',
      'Profiling the carrier-status join.\n---\nThen the batched query.',
    );
    const p = parseState(t);
    expect(p.sections.map((s) => s.known)).toEqual([
      'Objective',
      'Current Step',
      'Key Decisions',
      'Next Action',
      'Blockers',
      'Unsurfaced Results',
    ]);
    expect(p.fields.step).toBe('Profiling the carrier-status join.\nThen the batched query.');
    expect(p.fields.decisions).toHaveLength(2);
    const d = validateState(PATH, p, { now: NOW, staleAfterHours: 24 });
    expect(d.map((x) => x.code)).toEqual([DiagnosticCode.stateSetextHeading]);
    expect(d[0]!.range.start.line).toBe(10);
    expect(d[0]!.range.end.line).toBe(11);
    // `===` is a setext heading too; `---` after a blank line or a bullet is a thematic break (no finding).
    expect(codes(DEMO.replace('Profiling the carrier-status join.', 'Profiling\n==='))).toEqual([
      DiagnosticCode.stateSetextHeading,
    ]);
    expect(codes(DEMO.replace('Profiling the carrier-status join.', 'Profiling\n\n---'))).toEqual([]);
    expect(
      codes(DEMO.replace('- Keep the response', '---\n- Keep the response').replace('60 s.\n', '60 s.\n')),
    ).toEqual([]);
  });

  it('headings inside fenced code do not open sections; unknown and duplicate sections are reported', () => {
    const t = DEMO.replace('Profiling the carrier-status join.', '```\n## Blockers\n```').replace(
      '## Blockers\n\nNone',
      '## Blockers\n\nWaiting for the API key\n\n## Notes\n\nfree text\n\n## Blockers\n\n- VPN down',
    );
    const p = parseState(t);
    expect(p.fields.step).toBe('```\n## Blockers\n```');
    expect(p.fields.blockers).toEqual(['Waiting for the API key', 'VPN down']);
    expect(codes(t).sort()).toEqual([DiagnosticCode.stateDuplicateSection, DiagnosticCode.stateUnknownSection].sort());
  });

  it('reports missing sections, missing title, missing and bad timestamps', () => {
    expect(codes(DEMO.replace(/## Blockers\n\nNone\n\n/, ''))).toEqual([DiagnosticCode.stateMissingSection]);
    expect(codes(DEMO.replace('# Current State\n', ''))).toEqual([DiagnosticCode.stateMissingSection]);
    expect(codes(DEMO.replace('> Last updated: 2026-11-27T16:40:00+01:00\n', ''))).toEqual([
      DiagnosticCode.stateMissingTimestamp,
    ]);
    expect(codes(DEMO.replace('2026-11-27T16:40:00+01:00', '2026-11-27 16:40'))).toEqual([
      DiagnosticCode.stateBadTimestamp,
    ]);
    expect(codes(DEMO.replace('2026-11-27T16:40:00+01:00', '2026-02-30T10:00:00Z'))).toEqual([
      DiagnosticCode.stateBadTimestamp,
    ]);
    expect(parseTimestamp('2026-11-27T16:40:00.123-05:30')?.toISOString()).toBe('2026-11-27T22:10:00.123Z');
  });

  it('idle objective with content elsewhere is a placeholder warning', () => {
    expect(codes(DEMO.replace('Cut p95 latency of `GET /v2/shipments/:id` below 120 ms.', 'None'))).toEqual([
      DiagnosticCode.statePlaceholder,
    ]);
  });

  it('never throws on odd input', () => {
    for (const t of [
      '',
      '\uFEFF',
      '---',
      '#',
      '##\n##',
      '\r\r\r',
      '> Last updated:',
      '```\n## Objective',
      'x\n-\ny\n=',
    ]) {
      const p = parseState(t);
      expect(() => validateState(PATH, p, { now: NOW, staleAfterHours: 24 })).not.toThrow();
      expect(() => snapshotState(p, opts)).not.toThrow();
      expect(() =>
        renderState(p, applyStateUpdate(p.fields, { objective: 'x' }), '2026-11-27T18:00:00+01:00'),
      ).not.toThrow();
    }
  });
});

describe('freshness', () => {
  it('fresh within the window, stale after it, stale without a valid time', () => {
    const p = parseState(DEMO);
    expect(snapshotState(p, opts).freshness).toBe('fresh');
    const later = { ...opts, now: new Date('2026-11-29T18:00:00+01:00') };
    const s = snapshotState(p, later);
    expect(s.freshness).toBe('stale');
    expect(s.text).toMatch(/STALE/);
    expect(codes(DEMO, later.now)).toEqual([DiagnosticCode.stateStale]);
    expect(snapshotState(p, { ...later, staleAfterHours: 100 }).freshness).toBe('fresh');
    expect(snapshotState(parseState(DEMO.replace('2026-11-27T16:40:00+01:00', 'soon')), opts)).toMatchObject({
      freshness: 'stale',
      updated: null,
      active: true,
    });
  });
});

describe('snapshot', () => {
  it('holds every field within the target for a normal state', () => {
    const s = snapshotState(parseState(DEMO), opts);
    expect(s.active).toBe(true);
    expect(s.updated).toBe('2026-11-27T16:40:00+01:00');
    for (const part of [
      'Objective: Cut p95',
      'Current step: Profiling',
      'Key decisions:',
      'Next action: Write',
      'Unsurfaced results',
      'lacks an index',
    ]) {
      expect(s.text).toContain(part);
    }
    expect(s.text).not.toContain('Blockers');
    expect(estimateTokens(s.text)).toBeLessThanOrEqual(300);
  });

  it('respects the hard cap and names what it left out', () => {
    const many = applyStateUpdate(parseState(DEMO).fields, {
      decisions: Array.from(
        { length: 40 },
        (_, i) => `Decision number ${i} about a rather long architectural topic that needs words`,
      ),
      results: Array.from({ length: 30 }, (_, i) => `Result ${i}: measured something interesting in the benchmark run`),
    });
    const text = renderState(parseState(DEMO), many, '2026-11-27T17:00:00+01:00');
    for (const cap of [300, 150, 60]) {
      const s = snapshotState(parseState(text), { ...opts, maxTokens: cap });
      expect(estimateTokens(s.text), `cap ${cap}`).toBeLessThanOrEqual(cap);
      expect(s.text).toContain('Objective');
    }
    const s = snapshotState(parseState(text), opts);
    expect(s.text).toMatch(/… \d+ more in CURRENT_STATE\.md/);
    // The most recent decision survives the cut.
    expect(s.text).toContain('Decision number 39');
  });
});

describe('renderState', () => {
  it('changes only the touched section and the timestamp', () => {
    const p = parseState(DEMO);
    const next = renderState(
      p,
      applyStateUpdate(p.fields, { step: 'Benchmarking the batched query.' }),
      '2026-11-27T18:00:00+01:00',
    );
    const before = DEMO.split('\n');
    const after = next.split('\n');
    expect(after.length).toBe(before.length);
    const diff = before.map((l, i) => (l === after[i] ? null : i)).filter((i) => i !== null);
    expect(diff).toEqual([2, 10]);
    expect(after[2]).toBe('> Last updated: 2026-11-27T18:00:00+01:00');
    expect(parseState(next).fields.step).toBe('Benchmarking the batched query.');
  });

  it('preserves CRLF and BOM', () => {
    const crlf = `\uFEFF${DEMO.replace(/\n/g, '\r\n')}`;
    const p = parseState(crlf);
    expect(p.hasBom).toBe(true);
    expect(p.eol).toBe('\r\n');
    expect(p.fields.objective).toBe(parseState(DEMO).fields.objective);
    const out = renderState(
      p,
      applyStateUpdate(p.fields, { blockers: ['VPN down'], results: ['p95 is 95 ms'] }),
      '2026-11-27T18:00:00+01:00',
    );
    expect(out.startsWith('\uFEFF# Current State\r\n')).toBe(true);
    expect(out.replace(/\r\n/g, '')).not.toMatch(/\n|\r/);
    const back = parseState(out);
    expect(back.fields.blockers).toEqual(['VPN down']);
    expect(back.fields.results).toHaveLength(2);
  });

  it('values that look like structure are escaped and read back unchanged', () => {
    const p = parseState(TEMPLATE);
    const fields = applyStateUpdate(p.fields, {
      objective: 'Ship it\n---\n## not a section\n> Last updated: never\n```',
      decisions: ['a\n---', '# heading-like'],
    });
    const out = renderState(p, fields, '2026-11-27T18:00:00+01:00');
    const back = parseState(out);
    expect(back.fields.objective).toBe('Ship it\n---\n## not a section\n> Last updated: never\n```');
    expect(back.fields.decisions).toEqual(['a\n---', '# heading-like']);
    expect(back.updated?.raw).toBe('2026-11-27T18:00:00+01:00');
    expect(validateState(PATH, back, { now: NOW, staleAfterHours: 24 })).toEqual([]);
  });

  it('rewriting a setext-damaged section repairs it; missing sections are added in order', () => {
    const broken = DEMO.replace('Profiling the carrier-status join.', 'Profiling\n---').replace(
      /## Blockers\n\nNone\n\n/,
      '',
    );
    const p = parseState(broken);
    const out = renderState(p, applyStateUpdate(p.fields, { step: 'Profiling again' }), '2026-11-27T18:00:00+01:00');
    const back = parseState(out);
    expect(back.sections.map((s) => s.known)).toEqual([
      'Objective',
      'Current Step',
      'Key Decisions',
      'Next Action',
      'Blockers',
      'Unsurfaced Results',
    ]);
    expect(validateState(PATH, back, { now: NOW, staleAfterHours: 24 })).toEqual([]);
  });

  it('keeps unknown sections and text it does not understand', () => {
    const t = `${DEMO}\n## Notes\n\nkeep me\n`;
    const p = parseState(t);
    const out = renderState(p, applyStateUpdate(p.fields, { next: 'Merge' }), '2026-11-27T18:00:00+01:00');
    expect(out).toContain('## Notes\n\nkeep me\n');
  });

  it('list updates append without duplicates; clear replaces; placeholders clear scalars', () => {
    const f = parseState(DEMO).fields;
    const g = applyStateUpdate(f, {
      decisions: ['cache carrier status in redis for 60 s', 'New one'],
      objective: 'idle',
    });
    expect(g.decisions).toHaveLength(3);
    expect(g.objective).toBe('');
    expect(applyStateUpdate(f, { clear: ['results'], results: ['only'] }).results).toEqual(['only']);
    expect(changedFields(f, g)).toEqual(['objective', 'decisions']);
    expect(changedFields(f, applyStateUpdate(f, { step: ' Profiling the carrier-status join. ' }))).toEqual([]);
  });

  it('timestamps carry an offset', () => {
    expect(formatTimestamp(new Date('2026-11-27T15:40:00Z'), 60)).toBe('2026-11-27T16:40:00+01:00');
    expect(formatTimestamp(new Date('2026-11-27T15:40:00Z'), -330)).toBe('2026-11-27T10:10:00-05:30');
    expect(parseTimestamp(formatTimestamp(new Date()))).toBeDefined();
  });
});

describe('archive, handoff, absorb', () => {
  it('archive block keeps every unsurfaced result; append never rewrites the note', () => {
    const f = applyStateUpdate(parseState(DEMO).fields, { results: ['second result\nwith two lines'] });
    const block = archiveBlock(f, {
      time: '18:00',
      updated: '2026-11-27T16:40:00+01:00',
      reason: 'Archived by `gitmem state new`',
    });
    const note = '\uFEFF# 2026-11-27\r\n\r\n- 09:00 started\r\n';
    const out = appendToDaily(note, '2026-11-27', block);
    expect(out.startsWith(note)).toBe(true);
    expect(out.slice(note.length).replace(/\r\n/g, '')).not.toMatch(/\n/);
    for (const r of f.results) expect(out).toContain(r.split('\n')[0]);
    expect(out).toContain('with two lines');
    expect(
      appendToDaily(undefined, '2026-11-27', block).startsWith('# 2026-11-27\n\n## 18:00 Working state archived'),
    ).toBe(true);
    expect(appendToDaily('# 2026-11-27\n- x', '2026-11-27', ['B'])).toBe('# 2026-11-27\n- x\n\nB\n');
  });

  it('handoff seed has objective, step, decisions only, within the cap', () => {
    const f = parseState(DEMO).fields;
    const seed = handoffSeed(f, { maxTokens: 300 });
    expect(seed.text).toContain('Objective: Cut p95');
    expect(seed.text).toContain('Current step: Profiling');
    expect(seed.text).toContain('Cache carrier status');
    expect(seed.text).not.toContain('lacks an index');
    expect(seed.text).not.toContain('Write a benchmark');
    expect(
      estimateTokens(
        handoffSeed(
          applyStateUpdate(f, { decisions: Array.from({ length: 50 }, (_, i) => `decision ${i} with some words`) }),
          { maxTokens: 120 },
        ).text,
      ),
    ).toBeLessThanOrEqual(120);
    expect(handoffSeed(EMPTY_FIELDS, { maxTokens: 300 }).text).toBe('');
  });

  it('absorb adds only new results and touches nothing else', () => {
    const parent = parseState(DEMO).fields;
    const child = applyStateUpdate(EMPTY_FIELDS, {
      objective: 'child task',
      results: ['The events table lacks an index on `(shipment_id, created_at)`.', 'Found a second N+1'],
    });
    const r = absorbResults(parent, child);
    expect(r.added).toEqual(['Found a second N+1']);
    expect(r.duplicates).toHaveLength(1);
    expect(changedFields(parent, r.fields)).toEqual(['results']);
    expect(r.fields.objective).toBe(parent.objective);
  });
});
