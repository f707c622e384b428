// Bad input T09 (docs/bad-inputs.md): `recall --as-of` never changes the query silently. Vector or
// hybrid mode at an old revision answers from keywords and says so in `degraded`; `--lineage` there
// is not served and says so too.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, runCli, gitFixture, requireBuiltCli } from '../../support/fixtures.js';

let root: string;
beforeAll(() => {
  requireBuiltCli();
  root = gitFixture('demo');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'initial');
});
afterAll(() => rmSync(dirname(root), { recursive: true, force: true }));

describe('recall --as-of', () => {
  it('--mode vector at a revision reports keyword mode with a degraded reason, never null', () => {
    const r = runCli(['recall', 'webhook retries', '--as-of', 'HEAD', '--mode', 'vector', '--json', '--dir', root]);
    expect(r.code, r.stderr).toBe(0);
    const j = r.json();
    expect(j.mode).toBe('keyword');
    expect(j.degraded).toMatch(/keywords only \(vector was asked\)/);
  });

  it('--lineage with --as-of is reported as not served', () => {
    const j = runCli([
      'recall',
      'webhook retries',
      '--as-of',
      'HEAD',
      '--mode',
      'keyword',
      '--lineage',
      '--json',
      '--dir',
      root,
    ]).json();
    expect(j.degraded).toMatch(/lineage is not available with --as-of/);
  });

  it('--mode keyword at a revision is not degraded', () => {
    const j = runCli([
      'recall',
      'webhook retries',
      '--as-of',
      'HEAD',
      '--mode',
      'keyword',
      '--json',
      '--dir',
      root,
    ]).json();
    expect(j.degraded).toBeNull();
  });
});
