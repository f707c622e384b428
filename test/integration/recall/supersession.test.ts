// Supersession and expiry over real files (bad input V01: unknown ids and cycles): a superseded entry leaves recall (and comes back marked
// with includeHidden), an expired one ranks below a current one, and validate reports unknown ids,
// cycles and expired dates. Real node fs, real index storage, the real CLI for --all.
import { validate } from '../../../src/service/validate/validate.js';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../../src/core/diagnostics.js';
import { copyFixture, runCli } from '../../support/fixtures.js';
import { write } from '../../support/lsp.js';
import { openWorkspace } from '../../support/memory.js';
import { recall } from '../../../src/service/recall/recall.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(dirname(r), { recursive: true, force: true });
});

const entry = (id: string, body: string, extra: string[] = []) =>
  ['---', `id: ${id}`, 'type: decision', 'tags: [deploy]', 'created: 2026-11-01', ...extra, '---', '', body, ''].join(
    '\n',
  );

const clock = { now: () => new Date('2026-12-01T09:00:00Z') };

function workspace(): string {
  const root = copyFixture('default');
  roots.push(root);
  write(
    root,
    'memory/entries/deploy-friday.md',
    entry('deploy-friday', 'Production deploys happen on Friday afternoons with the blue pipeline.'),
  );
  write(
    root,
    'memory/entries/deploy-tuesday.md',
    entry('deploy-tuesday', 'Production deploys happen on Tuesday mornings with the green pipeline.', [
      'supersedes: [deploy-friday]',
    ]),
  );
  write(
    root,
    'memory/entries/cache-ttl-old.md',
    entry('cache-ttl-old', 'The pricing cache keeps entries for sixty seconds.', ['valid_until: 2026-10-01']),
  );
  write(
    root,
    'memory/entries/cache-ttl-new.md',
    entry('cache-ttl-new', 'The pricing cache keeps entries for sixty seconds, set in the config file.'),
  );
  return root;
}

describe('supersedes hides the older entry in recall', () => {
  it('drops it by default and returns it marked with includeHidden', async () => {
    const root = workspace();
    const m = await openWorkspace(root, { clock });
    try {
      const plain = await recall(m.context, 'production deploys pipeline', { mode: 'keyword' });
      const ids = plain.results.map((r) => r.entry?.id);
      expect(ids).toContain('deploy-tuesday');
      expect(ids).not.toContain('deploy-friday');
      const all = await recall(m.context, 'production deploys pipeline', { mode: 'keyword', includeHidden: true });
      const old = all.results.find((r) => r.entry?.id === 'deploy-friday');
      expect(old).toMatchObject({ hidden: 'superseded', supersededBy: ['deploy-tuesday'] });
      expect(all.results.find((r) => r.entry?.id === 'deploy-tuesday')?.hidden).toBeUndefined();
    } finally {
      await m.dispose();
    }
  });

  it('ranks an expired entry below a current one and marks it', async () => {
    const root = workspace();
    const m = await openWorkspace(root, { clock });
    try {
      // Without expiry the shorter old entry wins on BM25 (checked on the day before it expired).
      const before = await recall(m.context, 'pricing cache sixty seconds', {
        mode: 'keyword',
        now: new Date('2026-09-30T00:00:00Z'),
      });
      expect(before.results[0]?.entry?.id).toBe('cache-ttl-old');
      expect(before.results[0]?.expired).toBeUndefined();
      const res = await recall(m.context, 'pricing cache sixty seconds', { mode: 'keyword' });
      const ids = res.results.map((r) => r.entry?.id);
      expect(ids.indexOf('cache-ttl-new')).toBeLessThan(ids.indexOf('cache-ttl-old'));
      expect(res.results.find((r) => r.entry?.id === 'cache-ttl-old')?.expired).toEqual({
        field: 'valid_until',
        date: '2026-10-01',
      });
    } finally {
      await m.dispose();
    }
  });

  it('validate: unknown supersedes id and a cycle are errors, an expired date is a hint', async () => {
    const root = workspace();
    write(
      root,
      'memory/entries/ghost.md',
      entry('ghost', 'Replaces something that never existed.', ['supersedes: [no-such-entry]']),
    );
    write(root, 'memory/entries/loop-a.md', entry('loop-a', 'Loop A.', ['supersedes: [loop-b]']));
    write(root, 'memory/entries/loop-b.md', entry('loop-b', 'Loop B.', ['supersedes:', '  - loop-a']));
    const m = await openWorkspace(root, { clock });
    try {
      const diags = await validate(m.context);
      const unknown = diags.filter((d) => d.code === DiagnosticCode.supersedesUnknown);
      expect(unknown.map((d) => [d.path, d.severity, d.range.start.line])).toEqual([
        ['memory/entries/ghost.md', 'error', 5],
      ]);
      const cycles = diags.filter((d) => d.code === DiagnosticCode.supersessionCycle);
      expect(cycles.map((d) => d.path).sort()).toEqual(['memory/entries/loop-a.md', 'memory/entries/loop-b.md']);
      expect(cycles[0]!.message).toMatch(/loop-a → loop-b → loop-a/);
      const expired = diags.filter((d) => d.code === DiagnosticCode.expired);
      expect(expired).toHaveLength(1);
      expect(expired[0]).toMatchObject({
        path: 'memory/entries/cache-ttl-old.md',
        severity: 'hint',
        message: 'expired 2026-10-01: confirm, update or supersede',
      });
      expect(expired[0]!.range.start.line).toBe(5);
    } finally {
      await m.dispose();
    }
  });

  it('CLI: recall --all --json marks the superseded entry; the human output says so', () => {
    const root = workspace();
    const json = runCli([
      'recall',
      'production deploys pipeline',
      '--mode',
      'keyword',
      '--all',
      '--json',
      '--dir',
      root,
    ]);
    expect(json.code).toBe(0);
    const hit = json.json().results.find((r: any) => r.entry?.id === 'deploy-friday');
    expect(hit).toMatchObject({ hidden: 'superseded', supersededBy: ['deploy-tuesday'] });
    const human = runCli(['recall', 'production deploys pipeline', '--mode', 'keyword', '--all', '--dir', root]);
    expect(human.stdout).toMatch(/deploy-friday \[superseded by deploy-tuesday\]/);
    const plain = runCli(['recall', 'production deploys pipeline', '--mode', 'keyword', '--dir', root]);
    expect(plain.stdout).not.toMatch(/deploy-friday/);
  });
});
