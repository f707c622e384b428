// A one-shot recall after `git checkout` re-reads only the files git rewrote (issue 46: "git checkout
// of a branch that changes 1,000 memory files, then recall: only those files re-read"; bench:peers
// prints the count at 100,000 files). Real git repository, the built CLI as agents call it; the
// count is the walk's own `--debug` line ("walked the workspace: L memory files listed, R read").
import { appendFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bareWorkspace,
  git,
  initRepoOnMain,
  noModelEnv,
  okOutput,
  requireBuiltCli,
  runCli,
} from '../../support/fixtures.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
beforeAll(() => requireBuiltCli());

const FILES = 40;
const CHANGED = [3, 8, 15, 16, 22, 30, 39];

function recall(ws: string, env: Record<string, string>, word: string) {
  const r = runCli(['--dir', ws, 'recall', '--mode', 'keyword', '--json', '--debug', '--no-host', '--', word], { env });
  const out = okOutput(r) as { results: { path: string }[] };
  const m = /walked the workspace: (\d+) memory files listed, (\d+) read/.exec(r.stderr);
  return { paths: out.results.map((x) => x.path).sort(), listed: Number(m?.[1]), read: Number(m?.[2]) };
}

// `on`: the stats come from the entry's find listing (platform/listing-prefetch.ts, Linux), as at
// 4,000 chunks and more; `off`: the walk stats each file itself.
describe.each(process.platform === 'linux' ? ['on', 'off'] : ['off'])(
  'git checkout, then a one-shot recall (GITMEM_LISTING=%s)',
  (listing) => {
    it('re-reads only the memory files the checkout changed, each way', () => {
      const { root, ws } = bareWorkspace();
      roots.push(root);
      const path = (i: number) => join('memory', 'entries', `e-${i}.md`);
      for (let i = 0; i < FILES; i++)
        writeFileSync(
          join(ws, path(i)),
          `---\nid: e-${i}\ntype: decision\ntitle: entry ${i}\ncreated: 2026-01-01\n---\n\nwebhook retries ${i}\n`,
        );
      initRepoOnMain(ws);
      git(ws, 'checkout', '-q', '-b', 'other');
      for (const i of CHANGED) appendFileSync(join(ws, path(i)), '\nzeppelin rules on this branch\n');
      git(ws, 'commit', '-q', '-a', '-m', 'other: seven entries changed');
      git(ws, 'checkout', '-q', 'main');
      // Every file older than the racy window, so the index records each one's stat key.
      const old = new Date(Date.now() - 3_600_000);
      for (let i = 0; i < FILES; i++) utimesSync(join(ws, path(i)), old, old);
      const env = { ...noModelEnv(root), GITMEM_LISTING: listing };
      okOutput(runCli(['--dir', ws, 'index', '--json'], { env }));
      expect(recall(ws, env, 'webhook')).toMatchObject({ listed: FILES, read: 0 });

      git(ws, 'checkout', '-q', 'other');
      const there = recall(ws, env, 'zeppelin');
      expect(there).toEqual({ paths: CHANGED.map((i) => path(i)).sort(), listed: FILES, read: CHANGED.length });

      git(ws, 'checkout', '-q', 'main');
      const back = recall(ws, env, 'zeppelin');
      expect(back).toEqual({ paths: [], listed: FILES, read: CHANGED.length });
    });
  },
);
