// Bad input U56 (docs/bad-inputs.md): `gitmem dedupe` asks the one dedupe policy remember asks, the
// rule by meaning included. Real CLI process and the shipped embedding model: of two decisions that say
// the same thing in different words (too few shared words for dedupe.jaccard), the later one is found
// as a duplicate of the earlier one ('meaning', with its cosine) and --apply marks it; an unrelated
// entry and an entry of another type are not found.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, runCli, okOutput } from '../../support/fixtures.js';
import { modelEnv } from '../../support/model.js';
import { ANN, BEN, entryFile } from '../../support/repeats.js';

let root: string;
let env: Record<string, string>;
const cli = (...args: string[]) => runCli(['--dir', root, '--json', ...args], { cwd: root, env });

beforeAll(() => {
  env = modelEnv();
  root = copyFixture('demo');
  const dir = join(root, 'memory', 'entries');
  writeFileSync(join(dir, 'ann-retries.md'), entryFile('ann-retries', '2026-11-01T10:00:00Z', ANN));
  writeFileSync(join(dir, 'ben-retries.md'), entryFile('ben-retries', '2026-12-01T10:00:00Z', BEN));
  writeFileSync(
    join(dir, 'cat-retries.md'),
    entryFile('cat-retries', '2026-12-01T11:00:00Z', BEN, { type: 'warning' }),
  );
  writeFileSync(
    join(dir, 'ben-cache.md'),
    entryFile('ben-cache', '2026-12-01T12:00:00Z', 'The search page caches facet counts in Redis for ten minutes'),
  );
});

describe('gitmem dedupe finds repeats by meaning too (U56)', { timeout: 240_000 }, () => {
  it('the later of two reworded decisions is a duplicate of the earlier; others are not', () => {
    okOutput(cli('index'));
    const r = okOutput(cli('dedupe'));
    const mine = r.findings.filter((f: { path: string }) => /(ann|ben|cat)-/.test(f.path));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      path: 'memory/entries/ben-retries.md',
      duplicateOf: 'ann-retries',
      reason: 'meaning',
    });
    expect(mine[0].similarity).toBeGreaterThanOrEqual(0.95);
    okOutput(cli('dedupe', '--apply'));
    expect(readFileSync(join(root, 'memory', 'entries', 'ben-retries.md'), 'utf8')).toContain(
      'duplicate_of: ann-retries',
    );
    expect(readFileSync(join(root, 'memory', 'entries', 'ann-retries.md'), 'utf8')).not.toContain('duplicate_of');
  });
});
