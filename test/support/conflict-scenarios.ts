// The two conflict scenarios of issue 41 over the real openclaw-crontinel corpus (fixtures/corpora/),
// shared by the CLI, MCP and language-server tests: a temp git copy with no model (the rule is
// lexical; keyword recall keeps the runs deterministic), and the texts the tests write.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CORPORA } from './corpora.js';
import { copyDir, initRepoOnMain } from './fixtures.js';

/** MEMORY.md line 150 of the corpus: the app reads `PRICE_ID_*`, NOT `STRIPE_PRICE_*`. */
export const PRICE_LINE = 150;

/** A newer entry that contradicts MEMORY.md:150 (V06, docs/bad-inputs.md). */
export const STRIPE_ENTRY = 'App uses `STRIPE_PRICE_FREE` and `STRIPE_PRICE_PRO_MONTHLY` for the plan prices.';

/** The task an agent starts with, whose recall brings both back. */
export const PRICE_TASK = 'which stripe price ids does the app use';

/**
 * Unrelated facts that only share a number or a sentence frame (V07, docs/bad-inputs.md): the check before said
 * "similarity 1, number differs" for the first pair and "number differs" for the second.
 */
export const UNRELATED: readonly (readonly [string, string])[] = [
  ['Release 2.3.0 shipped to production on 2025-03-01.', 'Release 2.4.1 shipped to production on 2025-05-20.'],
  ['Monitors: 3 on the free plan.', 'Monitors: check every 3 minutes on the free plan, every 1 minute on pro.'],
];

/** A real contradiction beside them, which must still be flagged and labelled. */
export const POOL: readonly [string, string] = [
  'The monitor check pool keeps 20 workers.',
  'The monitor check pool keeps 50 workers.',
];

/** The pinned git identity and no model, no host. */
export function scenarioEnv(root: string): Record<string, string> {
  return {
    GITMEM_MODEL_DIR: join(dirname(root), 'no-model'),
    GITMEM_NO_HOST: '1',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
  };
}

/** A committed temp copy of the openclaw-crontinel corpus, keyword only; returns its root. */
export function crontinelCopy(): string {
  const root = copyDir(join(CORPORA, 'openclaw-crontinel'), 'ws');
  writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, model: { enabled: false } }));
  initRepoOnMain(root, 'seed: openclaw-crontinel');
  return root;
}
