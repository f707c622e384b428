// Test support: a git repository with history whose memory cites code (the code check,
// service/trust/code-check.ts). Commits carry the dates they are given, with a pinned identity.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from './fixtures.js';

/** Run git in `cwd` with a pinned identity and both dates set to `date` (ISO); throws on failure. */
export function gitAt(cwd: string, date: string, ...args: string[]): string {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

export const WEBHOOK_V1 = [
  "import { verify } from './stripe.js';",
  '',
  'export function handleWebhook(body: string, signature: string) {',
  '  verify(body, signature);',
  '  return JSON.parse(body);',
  '}',
  '',
].join('\n');

export const WEBHOOK_ENTRY = [
  '---',
  'id: billing-webhook',
  'type: codebase_knowledge',
  'tags: [billing]',
  'created: 2026-01-05',
  'files: [src/billing/webhook.ts]',
  '---',
  '',
  'The Stripe webhook handler `handleWebhook` checks the signature before parsing the event body.',
  '',
].join('\n');

/**
 * A workspace at the root of a fresh repository: the webhook entry (cites src/billing/webhook.ts by
 * `files:` and `handleWebhook`), everything committed on 2026-01-05. The test removes `dirname(root)`.
 */
export function webhookRepo(): string {
  const root = join(tempDir(), 'ws');
  const put = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  put('gitmem.config.json', JSON.stringify({ version: 1, layout: 'default' }));
  put('memory/MEMORY.md', '# Memory\n\n- Invoices are numbered per customer.\n');
  put('memory/entries/billing-webhook.md', WEBHOOK_ENTRY);
  put('src/billing/webhook.ts', WEBHOOK_V1);
  put('src/billing/stripe.ts', 'export function verify(body: string, sig: string) {\n  return body && sig;\n}\n');
  gitAt(root, '2026-01-05T10:00:00Z', 'init', '-q', '-b', 'main');
  gitAt(root, '2026-01-05T10:00:00Z', 'add', '-A');
  gitAt(root, '2026-01-05T10:00:00Z', 'commit', '-q', '-m', 'billing webhook and its memory');
  return root;
}

/** Remove a repo made by {@link webhookRepo}. */
export function removeRepo(root: string): void {
  rmSync(dirname(root), { recursive: true, force: true });
}
