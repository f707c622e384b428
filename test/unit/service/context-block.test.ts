import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipUtf8, renderContextBlock } from '../../../src/service/context-block.js';

const bytes = (s: string) => new TextEncoder().encode(s).length;

describe('renderContextBlock', () => {
  it('renders most relevant first with paths and lines, and cuts the first item that does not fit', () => {
    const items = [
      { path: 'memory/MEMORY.md', startLine: 3, endLine: 4, headingPath: ['Memory', 'Decisions'], text: '- Use lunr.\n- Use ONNX.' },
      { path: 'memory/2026-11-29.md', startLine: 7, endLine: 7, text: `- ${'x'.repeat(500)}` },
    ];
    const r = renderContextBlock(items, 200);
    expect(r.text.startsWith('### Recalled Context\n- memory/MEMORY.md:3-4 (Decisions)\n  - Use lunr.\n  - Use ONNX.\n- memory/2026-11-29.md:7\n')).toBe(true);
    expect(r.bytes).toBe(bytes(r.text));
    expect(r.bytes).toBeLessThanOrEqual(200);
    expect(r.items).toBe(2);
  });

  it('never exceeds the budget and never splits a character (emoji, CJK)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 80 }), { maxLength: 6 }), fc.integer({ min: 0, max: 400 }), (texts, budget) => {
        const r = renderContextBlock(texts.map((t, i) => ({ path: `m/${i}.md`, startLine: 1, endLine: 1, text: `東京 🎉 ${t}` })), budget);
        expect(bytes(r.text)).toBeLessThanOrEqual(budget);
        expect(r.text).not.toContain('\uFFFD');
        expect(Buffer.from(r.text, 'utf8').toString('utf8')).toBe(r.text);
      }),
    );
    expect(clipUtf8('a🎉b', 3)).toBe('a');
    expect(clipUtf8('東京', 4)).toBe('東');
  });
});
