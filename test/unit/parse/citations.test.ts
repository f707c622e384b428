// parse/citations.ts: which paths and names a memory cites, and whether code defines a name.
import { describe, expect, it } from 'vitest';
import { definesName, extractCitations } from '../../../src/parse/citations.js';

describe('extractCitations', () => {
  it('takes files: first, then repository paths in the text with their line', () => {
    const c = extractCitations('See src/api/server.ts:120 and ./lib/x.py#L4; again src/api/server.ts.', ['./src/a.ts']);
    expect(c.paths).toEqual([
      { path: 'src/a.ts', from: 'files' },
      { path: 'src/api/server.ts', line: 120, from: 'text' },
      { path: 'lib/x.py', line: 4, from: 'text' },
    ]);
  });

  it('skips URLs, absolute paths, paths leaving the repository and docs', () => {
    const c = extractCitations('https://example.com/a/b.js /etc/x/y.conf ../up/z.ts docs/notes.md a.ts', ['../x.ts']);
    expect(c.paths).toEqual([]);
  });

  it('takes backticked identifiers of 3+ characters, the last part of a dotted one', () => {
    expect(extractCitations('`handleWebhook()` calls `Stripe.verify` with `id` and `npm test`').names).toEqual([
      'handleWebhook',
      'verify',
    ]);
  });
});

describe('definesName', () => {
  it('finds declarations, function-valued assignments and method heads, not uses', () => {
    expect(definesName('export async function handleWebhook(b) {}', 'handleWebhook')).toBe(true);
    expect(definesName('const run = async (x) => x;', 'run')).toBe(true);
    expect(definesName('class A {\n  async start(port: number) {\n  }\n}', 'start')).toBe(true);
    expect(definesName('def charge(customer):\n  pass', 'charge')).toBe(true);
    expect(definesName('handleWebhook(body);', 'handleWebhook')).toBe(false);
    expect(definesName('function handleWebhookV2() {}', 'handleWebhook')).toBe(false);
  });
});
