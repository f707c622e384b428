// `gitmem dream` proposes merges by the one dedupe policy (issue #18; service/shared/dedupe-policy.ts),
// not a word-similarity rule of its own: a reworded repeat is proposed by meaning (the vectors the
// index stores), a near copy that changes a number is a possible conflict, not a merge, and a
// correction is never merged into the entry it supersedes. Real CLI process, a committed copy of the
// demo fixture (a real git repo in a temp folder) and the shipped ONNX model.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { committedFixture, runCli, okOutput } from '../../support/fixtures.js';
import { modelEnv } from '../../support/model.js';
import { entryFile } from '../../support/repeats.js';

let root: string;
let env: Record<string, string>;
const cli = (...args: string[]) => runCli(['--dir', root, '--json', ...args], { cwd: root, env });

beforeAll(() => {
  env = modelEnv();
  root = committedFixture('demo');
  const dir = join(root, 'memory', 'entries');
  const put = (id: string, created: string, text: string, extra = '') =>
    writeFileSync(join(dir, `${id}.md`), entryFile(id, created, text, { extra }));
  // A reworded repeat: few enough shared words that only the rule by meaning finds it.
  put(
    'ann-retries',
    '2026-11-01T10:00:00Z',
    'The payments service retries failed webhooks three times before giving up',
  );
  put(
    'ben-retries',
    '2026-12-01T10:00:00Z',
    'The payments service retries any failed webhook three times before giving up',
  );
  // The same sentence with another number: a possible conflict, not a duplicate.
  put('pool-twenty', '2026-11-02T10:00:00Z', 'Each checkout worker keeps a database pool of twenty connections open');
  put('pool-ten', '2026-12-02T10:00:00Z', 'Each checkout worker keeps a database pool of ten connections open');
  // A correction that repeats its subject, linked by supersedes.
  put('cache-ttl', '2026-11-03T10:00:00Z', 'The search page caches facet counts in Redis for ten minutes');
  put(
    'cache-ttl-fix',
    '2026-12-03T10:00:00Z',
    'The search page caches facet counts in Redis for ten minutes',
    'supersedes: [cache-ttl]\n',
  );
});

describe('gitmem dream merges by the one dedupe policy (real model)', { timeout: 240_000 }, () => {
  it('proposes the reworded repeat; not the changed number, not the correction', () => {
    okOutput(cli('index'));
    const res = okOutput(cli('dream', '--no-commit'));
    const merges = (res.proposals as Array<{ kind: string; title: string; why: string }>).filter(
      (p) => p.kind === 'merge',
    );
    const titles = merges.map((m) => m.title);
    expect(titles).toContain('merge ben-retries into ann-retries');
    expect(merges.find((m) => m.title === 'merge ben-retries into ann-retries')!.why).toMatch(/cosine 0\.9\d/);
    expect(titles.filter((t) => /pool-|cache-ttl/.test(t))).toEqual([]);
  });
});
