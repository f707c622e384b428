// Issue 41 item 2, `gitmem verify`: memories checked against the code they cite, in a real git
// repository with history. Deleted, renamed and edited cited code, a cited name that is gone, a path
// cited in a MEMORY.md bullet, `verified:` moving the baseline, exit codes 1 / 0 / 2 and `--json`.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noModelEnv, requireBuiltCli, runCli } from '../../support/fixtures.js';
import { gitAt, removeRepo, webhookRepo } from '../../support/code-repo.js';

let root: string;
const cli = (...args: string[]) => runCli([...args, '--dir', root], { env: noModelEnv(root) });
const put = (rel: string, text: string) => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
};
const entry = (id: string, files: string[], body: string, extra = '') =>
  `---\nid: ${id}\ntype: codebase_knowledge\ntags: [code]\ncreated: 2026-01-05\nfiles: [${files.join(', ')}]\n${extra}---\n\n${body}\n`;

beforeAll(() => {
  requireBuiltCli();
  root = webhookRepo();
  put('src/tax/rates.ts', 'export const VAT = 0.2;\nexport const REDUCED = 0.05;\n');
  put('src/legacy/old.ts', 'export const OLD = 1;\n');
  put('src/api/server.ts', 'export function startServer(port: number) {\n  return port;\n}\n');
  put('src/util/log.ts', 'export function log(s: string) {\n  console.log(s);\n}\n');
  put('memory/entries/tax-rates.md', entry('tax-rates', ['src/tax/rates.ts'], 'VAT is 20 %, reduced rate 5 %.'));
  put('memory/entries/legacy.md', entry('legacy', ['src/legacy/old.ts'], 'The legacy module holds the old flag.'));
  put('memory/entries/logging.md', entry('logging', ['src/util/log.ts'], 'Log lines go through `log`.'));
  put(
    'memory/MEMORY.md',
    '# Memory\n\n- Invoices are numbered per customer.\n- The API boots with `startServer` in src/api/server.ts:1 on port 8080.\n- Release notes live in docs/releases.md and src/never/was-here.ts is planned.\n',
  );
  gitAt(root, '2026-01-06T10:00:00Z', 'add', '-A');
  gitAt(root, '2026-01-06T10:00:00Z', 'commit', '-q', '-m', 'more code and memory');
  // Later the code moves on: the webhook is rewritten, rates.ts renamed, old.ts deleted, startServer renamed.
  put(
    'src/billing/webhook.ts',
    "import { verify } from './stripe.js';\n\nexport function handleWebhook(body: string, signature: string) {\n  const event = JSON.parse(body);\n  queue.push(event);\n  return event;\n}\n",
  );
  gitAt(root, '2026-02-01T10:00:00Z', 'mv', 'src/tax/rates.ts', 'src/tax/tax-rates.ts');
  rmSync(join(root, 'src/legacy/old.ts'));
  put('src/api/server.ts', 'export function bootServer(port: number) {\n  return port;\n}\n');
  gitAt(root, '2026-02-01T10:00:00Z', 'add', '-A');
  gitAt(root, '2026-02-01T10:00:00Z', 'commit', '-q', '-m', 'rewrite webhook, move rates, drop legacy');
  put('src/billing/webhook.ts', `${'// retries\n'}${readFileSync(join(root, 'src/billing/webhook.ts'), 'utf8')}`);
  gitAt(root, '2026-02-03T10:00:00Z', 'commit', '-q', '-am', 'webhook: note retries');
});
afterAll(() => removeRepo(root));

describe('gitmem verify', () => {
  it('lists deleted, renamed and edited cited code and missing names with --json, and exits 1', () => {
    const r = cli('verify', '--json');
    expect(r.code, r.stderr).toBe(1);
    const res = r.json() as {
      checked: number;
      stale: { path: string; id?: string; code: Record<string, unknown>[] }[];
    };
    const by = (p: string) => res.stale.find((s) => s.path === p)?.code;
    expect(by('memory/entries/billing-webhook.md')).toEqual([
      expect.objectContaining({ path: 'src/billing/webhook.ts', status: 'code-changed', commits: 2, changedLines: 6 }),
    ]);
    expect(by('memory/entries/tax-rates.md')).toEqual([
      expect.objectContaining({ path: 'src/tax/rates.ts', status: 'orphaned', movedTo: 'src/tax/tax-rates.ts' }),
    ]);
    expect(by('memory/entries/legacy.md')).toEqual([
      expect.objectContaining({ path: 'src/legacy/old.ts', status: 'orphaned' }),
    ]);
    expect(by('memory/entries/legacy.md')![0]).not.toHaveProperty('movedTo');
    expect(by('memory/MEMORY.md')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'src/api/server.ts', status: 'name-missing', name: 'startServer' }),
        expect.objectContaining({ path: 'src/api/server.ts', status: 'code-changed', commits: 1 }),
      ]),
    );
    // Unchanged code, a doc path and a path that never existed are not stale.
    expect(by('memory/entries/logging.md')).toBeUndefined();
    expect(JSON.stringify(res)).not.toContain('was-here');
    expect(JSON.stringify(res)).not.toContain('releases.md');
    expect(res.checked).toBe(5);
    expect(res.stale.find((s) => s.path === 'memory/entries/billing-webhook.md')?.id).toBe('billing-webhook');
  });

  it('prints the stale memories as text', () => {
    const r = cli('verify');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('memory/entries/tax-rates.md');
    expect(r.stdout).toContain('src/tax/rates.ts: gone (moved to src/tax/tax-rates.ts)');
    expect(r.stdout).toContain('src/billing/webhook.ts: code changed (2 commits, 6 lines)');
    expect(r.stdout).toContain('src/api/server.ts: no longer defines startServer');
  });

  it('exits 0 for clean memories and 2 for a path that names no memory', () => {
    expect(cli('verify', 'memory/entries/logging.md').code).toBe(0);
    const bad = cli('verify', '--json', 'memory/nope');
    expect(bad.code).toBe(2);
    expect(bad.json().error.code).toBe('usage');
  });

  it('counts only changes after `verified:`', () => {
    put(
      'memory/entries/billing-webhook.md',
      readFileSync(join(root, 'memory/entries/billing-webhook.md'), 'utf8').replace(
        'created: 2026-01-05\n',
        'created: 2026-01-05\nverified: 2026-02-02\n',
      ),
    );
    gitAt(root, '2026-02-04T10:00:00Z', 'commit', '-q', '-am', 'verified the webhook memory');
    const after = (
      cli('verify', '--json', 'memory/entries/billing-webhook.md').json() as { stale: { code: unknown[] }[] }
    ).stale;
    // Re-checked on 2026-02-02: the rewrite of 02-01 no longer counts, the 02-03 commit does.
    expect(after).toEqual([
      expect.objectContaining({
        code: [expect.objectContaining({ status: 'code-changed', commits: 1, changedLines: 1 })],
      }),
    ]);
  });
});
