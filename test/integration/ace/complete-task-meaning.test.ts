// Bad input U55 (docs/bad-inputs.md): complete-task asks the one dedupe policy remember asks, the rule
// by meaning included. Real git repository, real CLI process and the shipped embedding model: a task
// whose result is a reworded copy of a live entry (too few shared words for dedupe.jaccard) is
// answered `duplicate` naming that entry, the way `remember` answers the same text; nothing is written.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, runCli, okOutput, initRepoOnMain } from '../../support/fixtures.js';
import { modelEnv } from '../../support/model.js';
import { ANN, BEN } from '../../support/repeats.js';

let root: string;
let env: Record<string, string>;
const cli = (args: string[], input?: string) =>
  runCli(['--dir', root, '--json', ...args], { cwd: root, env, ...(input !== undefined ? { input } : {}) });

beforeAll(() => {
  env = modelEnv();
  root = copyFixture('demo');
  initRepoOnMain(root);
});

describe('complete-task dedupes by meaning as remember does (U55)', { timeout: 240_000 }, () => {
  it('a reworded copy of a live entry is a duplicate of it; an unrelated task is written', () => {
    const first = okOutput(cli(['remember', ANN, '--type', 'decision']));
    expect(first.status).toBe('created');
    okOutput(cli(['index']));
    // remember calls the reworded text a duplicate (by meaning: the rule by text does not match).
    expect(okOutput(cli(['remember', BEN, '--type', 'decision']))).toMatchObject({
      status: 'duplicate',
      duplicateOf: first.id,
    });
    const entries = () => readdirSync(join(root, 'memory', 'entries')).sort();
    const before = entries();
    const task = (goal: string, result: string) => JSON.stringify({ goal, result, type: 'decision', tool_usage: [] });
    const dup = okOutput(cli(['complete-task', '--input', '-'], task(BEN, BEN)));
    expect(dup).toMatchObject({ status: 'duplicate', memoryId: first.id, duplicateOf: first.id, path: first.path });
    expect(entries()).toEqual(before);
    const other = okOutput(
      cli(
        ['complete-task', '--input', '-'],
        task('Cache facet counts', 'The search page caches facet counts in Redis for ten minutes'),
      ),
    );
    expect(other.status).toBe('created');
  });
});
