// B46: the secret scan of a big note remembers each line's findings (core/secrets.ts
// SecretLineMemo). The findings of a line depend on its text alone, so a scan through the memo must
// equal a scan without it, line numbers and all, over any sequence of edits, and also when the memo
// is small enough to drop generations on the way.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSecretsInText, SecretLineMemo } from '../../../src/core/secrets.js';

/** Lines with and without findings (token formats, assignments, the allow marker, duplicates). */
const LINE = fc.constantFrom(
  '- plain bullet about the deploy queue',
  '- aws key AKIAABCDEFGHIJKLMNOP in the notes',
  '- aws key AKIAABCDEFGHIJKLMNOP gitmem:allow-secret',
  'password = hunter2X',
  'api_key: "9fQ2-x8Lk_31mZpQaV7r"',
  'Authorization: Bearer aB3dE5fG7hI9jK1lM3nO',
  'postgres://deploy:S3cretPw@db.internal/app',
  'ghp_abcdefghijklmnopqrstuvwxyz0123456789 and AKIAABCDEFGHIJKLMNOP',
  '',
  '## 09:30 standup',
  '- token: changeme',
);

type Edit = { at: number; op: 'replace' | 'insert' | 'delete'; line: string };
const edit = fc.record({
  at: fc.nat({ max: 10_000 }),
  op: fc.constantFrom<'replace' | 'insert' | 'delete'>('replace', 'insert', 'delete'),
  line: LINE,
});

function apply(lines: string[], e: Edit): void {
  const i = lines.length ? e.at % lines.length : 0;
  if (e.op === 'insert' || lines.length === 0) lines.splice(i, 0, e.line);
  else if (e.op === 'delete') lines.splice(i, 1);
  else lines[i] = e.line;
}

describe('B46: secret findings remembered per line', () => {
  it('property: a scan through the memo equals a full scan after every edit', () => {
    fc.assert(
      fc.property(
        fc.array(LINE, { minLength: 1, maxLength: 60 }),
        fc.array(edit, { minLength: 1, maxLength: 25 }),
        fc.constantFrom(64, 256, 1 << 20),
        fc.constantFrom('\n', '\r\n'),
        (start, edits, maxChars, eol) => {
          const memo = new SecretLineMemo(maxChars);
          const lines = [...start];
          expect(findSecretsInText('memory/daily/d.md', lines.join(eol), memo)).toEqual(
            findSecretsInText('memory/daily/d.md', lines.join(eol)),
          );
          for (const e of edits) {
            apply(lines, e);
            const text = lines.join(eol);
            expect(findSecretsInText('memory/daily/d.md', text, memo)).toEqual(
              findSecretsInText('memory/daily/d.md', text),
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('stays bounded: two generations of the given size at most', () => {
    const memo = new SecretLineMemo(1000);
    const text = Array.from({ length: 5000 }, (_, i) => `- line ${i} of a long note`).join('\n');
    findSecretsInText('memory/daily/d.md', text, memo);
    // ~25 characters a line: at most 2 × 1000 / 20 lines kept.
    expect(memo.size).toBeLessThanOrEqual(100);
    expect(memo.size).toBeGreaterThan(0);
  });

  it('a finding is reported at its new line after lines are inserted above it', () => {
    const memo = new SecretLineMemo();
    const key = '- aws key AKIAABCDEFGHIJKLMNOP here';
    expect(findSecretsInText('p.md', `a\n${key}`, memo).map((f) => [f.line, f.column])).toEqual([[2, 11]]);
    expect(findSecretsInText('p.md', `a\nb\nc\n${key}`, memo).map((f) => [f.line, f.column])).toEqual([[4, 11]]);
  });
});
