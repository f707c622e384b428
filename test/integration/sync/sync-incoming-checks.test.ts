// Bad input G06 (docs/bad-inputs.md): an entry that a sync brings in is checked the way a local write
// is. Real git: a bare remote and two clones; Ben writes an entry that contradicts (or repeats) one
// Ann wrote, syncs, and Ann's sync reports it (text report and --json `incomingFindings`), while an
// unrelated entry, or one that names the other in `compatible_with`, is not reported.
import { describe, expect, it } from 'vitest';
import { runCli, write, okOutput } from '../../support/fixtures.js';
import { useSyncClones } from '../../support/sync-clones.js';

/** A bare remote and two clones (Ann's `a`, Ben's `b`) with gitmem's merge rules, keyword only (test/support/sync-clones.ts). */
const setup = useSyncClones();

const remember = (dir: string, text: string, ...extra: string[]) =>
  okOutput(runCli(['remember', text, '--type', 'decision', '--json', '--dir', dir, ...extra]));

describe('sync checks what came in (G06)', { timeout: 240_000 }, () => {
  it('a contradicting and a repeated entry from the remote are reported; an unrelated one is not', () => {
    const { a, b } = setup();
    const mine = remember(a, 'The payments service retries failed webhooks 3 times before giving up');
    const dupOf = remember(a, 'Invoices are rendered to PDF with the headless browser in the worker pool');
    okOutput(runCli(['sync', '--json', '--dir', a]));
    okOutput(runCli(['sync', '--json', '--dir', b]));
    // Ben writes his entries as files (his own clone's remember would already have warned him).
    const entry = (id: string, text: string) =>
      `---\nid: ${id}\ntype: decision\ntitle: ${id}\ntags: []\ncreated: 2026-12-01T10:00:00Z\nstatus: active\n---\n\n${text}\n`;
    write(
      b,
      `memory/entries/${'2026-12-01-ben-retries'}.md`,
      entry('2026-12-01-ben-retries', 'The payments service retries failed webhooks 5 times before giving up'),
    );
    write(
      b,
      `memory/entries/2026-12-01-ben-pdf.md`,
      entry('2026-12-01-ben-pdf', 'Invoices are rendered to PDF with the headless browser in the worker pool'),
    );
    write(
      b,
      `memory/entries/2026-12-01-ben-cache.md`,
      entry('2026-12-01-ben-cache', 'The search page caches facet counts in Redis for ten minutes'),
    );
    okOutput(runCli(['sync', '--json', '--dir', b]));

    const r = okOutput(runCli(['sync', '--json', '--dir', a]));
    expect(r.commitsIn.length).toBeGreaterThan(0);
    const byId = Object.fromEntries(r.incomingFindings.map((f: any) => [f.id, f]));
    expect(Object.keys(byId).sort()).toEqual(['2026-12-01-ben-pdf', '2026-12-01-ben-retries']);
    expect(byId['2026-12-01-ben-retries']).toMatchObject({
      finding: 'possible_conflict',
      path: 'memory/entries/2026-12-01-ben-retries.md',
      with: { id: mine.id, path: mine.path },
      reasons: ['number'],
    });
    expect(byId['2026-12-01-ben-pdf']).toMatchObject({
      finding: 'duplicate',
      with: { id: dupOf.id },
      similarity: 1,
    });
  });

  it('the text report names the pair and what to do; compatible_with silences it', () => {
    const { a, b } = setup();
    const mine = remember(a, 'Feature flags are read from the config service at startup');
    okOutput(runCli(['sync', '--dir', a]));
    okOutput(runCli(['sync', '--dir', b]));
    const text = 'Feature flags are never read from the config service at startup';
    const entry = (id: string, extra = '') =>
      `---\nid: ${id}\ntype: decision\ntitle: ${id}\ntags: []\ncreated: 2026-12-01T10:00:00Z\nstatus: active\n${extra}---\n\n${text}\n`;
    write(b, 'memory/entries/2026-12-01-ben-flags.md', entry('2026-12-01-ben-flags'));
    okOutput(runCli(['sync', '--dir', b]));
    const out = okOutput(runCli(['sync', '--dir', a]));
    expect(out).toMatch(new RegExp(`possible conflict 2026-12-01-ben-flags may contradict \\(.*\\) ${mine.id}`));
    expect(out).toMatch(/supersedes: \[/);

    write(
      b,
      'memory/entries/2026-12-01-ben-flags.md',
      entry('2026-12-01-ben-flags', `compatible_with: [${mine.id}]\n`),
    );
    okOutput(runCli(['sync', '--dir', b]));
    const again = okOutput(runCli(['sync', '--json', '--dir', a]));
    expect(again.commitsIn.length).toBeGreaterThan(0);
    expect(again.incomingFindings).toEqual([]);
  });
});
