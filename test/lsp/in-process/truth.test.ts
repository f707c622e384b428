// The editor side of memory that stays true, over the real language server: an expired entry gets
// the hint and three one-edit code actions (confirm, update, supersede); an open entry that
// contradicts an older one gets the possible-conflict warning with "supersede" / "keep both"; an
// over-long MEMORY.md gets a warning on the first line a host would cut.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import { copyFixture } from '../../support/fixtures.js';
import { createLspPair, write, type LspPair } from '../../support/lsp.js';

const OLD = [
  '---',
  'id: pool-ten',
  'type: decision',
  'tags: [db]',
  'created: 2026-11-01',
  'review_after: 2026-10-01',
  '---',
  '',
  'The database connection pool holds 10 connections.',
  '',
].join('\n');
const NEW = [
  '---',
  'id: pool-fifty',
  'type: decision',
  'tags: [db]',
  'created: 2026-11-20',
  '---',
  '',
  'The database connection pool holds 50 connections.',
  '',
].join('\n');
const LONG = [
  '# Memory',
  '',
  ...Array.from({ length: 230 }, (_, i) => `- fact ${i + 1}: something worth keeping`),
  '',
].join('\n');

let p: LspPair;
let root: string;

beforeAll(async () => {
  root = copyFixture('default');
  write(root, 'memory/entries/pool-ten.md', OLD);
  write(root, 'memory/entries/pool-fifty.md', NEW);
  write(root, 'memory/MEMORY.md', LONG);
  p = createLspPair(root, { clock: { now: () => new Date('2026-12-01T09:00:00Z') } });
  await p.start();
});

afterAll(async () => {
  await p?.close();
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

const actions = (rel: string, line: number) =>
  p.client.sendRequest('textDocument/codeAction', {
    textDocument: { uri: p.uri(rel) },
    range: { start: { line, character: 0 }, end: { line, character: 0 } },
    context: { diagnostics: [] },
  }) as Promise<any[]>;

describe('expired entries in the editor', () => {
  it('shows the hint at the date and offers confirm, update and supersede, each one edit', async () => {
    const uri = p.uri('memory/entries/pool-ten.md');
    await p.open('memory/entries/pool-ten.md');
    await p.inbox.until(
      () => p.inbox.diagnosticsFor(uri).some((d) => d.code === DiagnosticCode.expired),
      'expired hint',
    );
    const hint = p.inbox.diagnosticsFor(uri).find((d) => d.code === DiagnosticCode.expired)!;
    expect(hint).toMatchObject({
      severity: 4,
      message: 'review due 2026-10-01: confirm, update or supersede',
      range: { start: { line: 5, character: 14 } },
    });
    const got = (await actions('memory/entries/pool-ten.md', 5)).filter(
      (a) => a.diagnostics?.[0]?.code === DiagnosticCode.expired,
    );
    expect(got.map((a) => a.title)).toEqual([
      'Confirm: still true (review_after → 2027-03-01)',
      'Update: mark updated 2026-12-01 (review_after → 2027-03-01)',
      'Supersede: new entry 2026-12-01-pool-ten that replaces pool-ten',
    ]);
    expect(Object.values(got[0].edit.changes)).toEqual([[{ range: hint.range, newText: '2027-03-01' }]]);
    expect((Object.values(got[1].edit.changes)[0] as any[]).map((e) => e.newText)).toEqual([
      '2027-03-01',
      'updated: 2026-12-01\n',
    ]);
    const create = got[2].edit.documentChanges;
    expect(create[0]).toMatchObject({ kind: 'create', uri: p.uri('memory/entries/2026-12-01-pool-ten.md') });
    expect(create[1].edits[0].newText).toContain('supersedes:\n  - pool-ten\n');
    expect(create[1].edits[0].newText).toContain('The database connection pool holds 10 connections.');
  });

  it('confirming (applying the edit) clears the hint', async () => {
    await p.change(
      'memory/entries/pool-ten.md',
      2,
      OLD.replace('review_after: 2026-10-01', 'review_after: 2027-03-01'),
    );
    const uri = p.uri('memory/entries/pool-ten.md');
    // The diagnostics the server publishes for the edited text (version 2), not any publish that
    // happens to lack the hint: a server that ignored the edit never sends version 2, and one that
    // re-validated the old date sends it with the hint still there.
    await p.inbox.until(() => p.inbox.diagnostics.get(uri)?.version === 2, 'diagnostics for version 2');
    expect(p.inbox.diagnosticsFor(uri).map((d) => d.code)).not.toContain(DiagnosticCode.expired);
    // Nothing else is diagnosed on it (its conflict with pool-fifty is shown on pool-fifty, the later one).
    expect(p.inbox.diagnosticsFor(uri)).toEqual([]);
  });
});

describe('possible conflicts in the editor', () => {
  it('flags the later entry and offers supersede / keep both', async () => {
    const uri = p.uri('memory/entries/pool-fifty.md');
    await p.open('memory/entries/pool-fifty.md');
    await p.inbox.until(
      () => p.inbox.diagnosticsFor(uri).some((d) => d.code === DiagnosticCode.possibleConflict),
      'possible-conflict warning',
    );
    const d = p.inbox.diagnosticsFor(uri).find((x) => x.code === DiagnosticCode.possibleConflict)!;
    expect(d.message).toMatch(/possible conflict with pool-ten .*number differs/);
    expect(
      p.inbox
        .diagnosticsFor(p.uri('memory/entries/pool-ten.md'))
        .some((x) => x.code === DiagnosticCode.possibleConflict),
    ).toBe(false);
    const got = (await actions('memory/entries/pool-fifty.md', d.range.start.line)).filter(
      (a) => a.diagnostics?.[0]?.code === DiagnosticCode.possibleConflict,
    );
    expect(got.map((a) => a.title)).toEqual([
      'Supersede the old one (pool-ten)',
      'Keep both (mark compatible with pool-ten)',
    ]);
    expect((Object.values(got[0].edit.changes)[0] as any[])[0].newText).toBe('supersedes: [pool-ten]\n');
    expect((Object.values(got[1].edit.changes)[0] as any[])[0].newText).toBe('compatible_with: [pool-ten]\n');
    // Keeping both (the edit applied) settles it.
    await p.change(
      'memory/entries/pool-fifty.md',
      2,
      NEW.replace('created: 2026-11-20', 'created: 2026-11-20\ncompatible_with: [pool-ten]'),
    );
    await p.inbox.until(() => p.inbox.diagnostics.get(uri)?.version === 2, 'diagnostics for version 2');
    expect(p.inbox.diagnosticsFor(uri).map((x) => x.code)).not.toContain(DiagnosticCode.possibleConflict);
  });
});

describe('always-loaded budget in the editor', () => {
  it('warns at the first line a host would cut (line 201 of a 232-line MEMORY.md)', async () => {
    const uri = p.uri('memory/MEMORY.md');
    await p.inbox.until(
      () => p.inbox.diagnosticsFor(uri).some((d) => d.code === DiagnosticCode.overLoadBudget),
      'over-budget warning',
    );
    const d = p.inbox.diagnosticsFor(uri).find((x) => x.code === DiagnosticCode.overLoadBudget)!;
    expect(d.severity).toBe(2);
    expect(d.range.start.line).toBe(200);
    expect(d.message).toMatch(/loads 200 lines cuts memory\/MEMORY\.md here: lines 201–232 \(32 lines/);
  });
});
