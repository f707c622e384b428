// The Fusion review files' text: memory-audit.md sections and which decisions are already audited,
// memory-insights.md for proposals awaiting review.
import { describe, expect, it } from 'vitest';
import { auditedDecisions, auditSection, insightsText } from '../../../src/service/ace/insights.js';

const at = new Date(Date.UTC(2026, 11, 1, 2, 0));

describe('memory-audit.md', () => {
  it('one dated section per run; ids on decision lines count as audited, proposed ones do not', () => {
    const s = auditSection(at, {
      proposed: ['d-0000000a'],
      promoted: ['d-0000000b'],
      rejected: [],
      pruned: ['d-0000000c'],
      awaiting: 1,
    });
    expect(s).toBe(
      '## 2026-12-01 02:00 UTC\n\n- proposed: 1 (d-0000000a)\n- promoted: 1 (d-0000000b)\n- rejected: 0\n- pruned: 1 (d-0000000c)\n- awaiting review: 1\n',
    );
    expect([...auditedDecisions(s)].sort()).toEqual(['d-0000000b', 'd-0000000c']);
    expect(auditedDecisions(undefined).size).toBe(0);
  });
});

describe('memory-insights.md', () => {
  it('lists proposals awaiting review with kind, why and evidence; says so when there are none', () => {
    const text = insightsText(at, '.fusion/memory/DREAMS.md', [
      {
        id: 'd-0000000a',
        kind: 'promotion',
        status: 'proposed',
        title: 'promote "strip the BOM"',
        why: 'seen on 2 days',
        evidence: [{ path: '.fusion/memory/2026-11-20.md', line: 3 }],
      },
    ]);
    expect(text).toContain(
      '## d-0000000a: promote "strip the BOM"\n\n- kind: promotion\n- why: seen on 2 days\n- evidence: .fusion/memory/2026-11-20.md:3\n',
    );
    expect(text).toContain('Nothing here is memory until promoted');
    expect(insightsText(at, 'DREAMS.md', [])).toContain('No proposals awaiting review.');
  });
});
