// The review steps of the VS Code end-to-end test (scripts/e2e-vscode.mjs runs them in the UI run):
// a git repository around the workspace, hybrid Recall… for a paraphrase keyword recall misses, an
// agent's memory_remember over MCP (the real MCP SDK client) reviewed in the Memory Changes view and
// VS Code's diff editor, a per-file Checkpoint checked in git, the lineage hover, and the CodeLens
// on a code file entries name. DOM assertions decide; each step leaves a screenshot.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The paraphrase: no word of it is in the webhook playbook (keyword recall misses it), its meaning is. */
export const PARAPHRASE = 'cryptographic seal of a payload must be checked prior to decoding';
export const PARAPHRASE_TARGET = 'verify-webhooks-before-parsing';
const AUTHOR = { name: 'Ada Lovelace', email: 'ada@example.invalid' };

const git = (ws, ...args) =>
  execFileSync('git', args, {
    cwd: ws,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: AUTHOR.name,
      GIT_AUTHOR_EMAIL: AUTHOR.email,
      GIT_COMMITTER_NAME: AUTHOR.name,
      GIT_COMMITTER_EMAIL: AUTHOR.email,
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: ws,
    },
  }).trim();

/** Turn the workspace into a git repository with one commit by {@link AUTHOR}, plus a code file an entry names. */
export function makeRepository(ws) {
  mkdirSync(join(ws, 'src', 'db'), { recursive: true });
  writeFileSync(join(ws, 'src', 'db', 'pool.ts'), 'export const poolSize = 10;\n');
  git(ws, 'init', '-q', '-b', 'main');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'memory: initial');
  return git(ws, 'rev-parse', 'HEAD');
}

/** Keyword-only recall by the CLI (the same index rules): paths of its results. */
function keywordRecall(repo, ws, query) {
  const out = execFileSync(
    process.execPath,
    [join(repo, 'dist', 'cli.cjs'), 'recall', query, '--mode', 'keyword', '--json', '--dir', ws],
    { encoding: 'utf8' },
  );
  return JSON.parse(out).results.map((r) => r.path);
}

/** memory_remember through the real MCP SDK client, against `gitmem mcp` in the workspace. */
async function rememberOverMcp(repo, ws, args) {
  const req = createRequire(join(repo, 'package.json'));
  const { Client } = await import(req.resolve('@modelcontextprotocol/sdk/client/index.js'));
  const { StdioClientTransport } = await import(req.resolve('@modelcontextprotocol/sdk/client/stdio.js'));
  const env = { ...process.env };
  delete env.GITMEM_MODEL_DIR;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(repo, 'dist', 'cli.cjs'), 'mcp', '--dir', ws],
    env,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'gitmem-e2e-agent', version: '1.0.0' });
  await client.connect(transport);
  try {
    const res = await client.callTool({ name: 'memory_remember', arguments: args });
    if (res.isError) throw new Error(`memory_remember failed: ${JSON.stringify(res.content)}`);
    return res.structuredContent;
  } finally {
    await client.close();
  }
}

/**
 * Run the review steps in the open workbench.
 * @param t {page, ws, repo, log, screenshot, runCommand, initial} from the UI run
 */
export async function reviewSteps(t) {
  const { page, ws, repo, log, screenshot, runCommand, initial } = t;
  const input = page.locator('.quick-input-widget input.input');

  // 1. Recall… finds by meaning what keyword recall misses.
  const keyword = keywordRecall(repo, ws, PARAPHRASE);
  if (keyword.some((p) => p.includes(PARAPHRASE_TARGET)))
    throw new Error(`keyword recall already finds the paraphrase target: ${keyword.join(', ')}`);
  await runCommand('gitmem: Recall');
  await page.locator('.quick-input-widget input.input[placeholder^="Recall memory"]').waitFor({ timeout: 15_000 });
  await input.fill(PARAPHRASE);
  const hit = page.locator('.quick-input-list .monaco-list-row', { hasText: PARAPHRASE_TARGET }).first();
  await hit.waitFor({ timeout: 30_000 });
  log(
    `Recall… "${PARAPHRASE}": hybrid lists ${PARAPHRASE_TARGET} (keyword recall: ${keyword.length ? keyword.join(', ') : 'nothing'})`,
  );
  await screenshot('5-recall-paraphrase');
  await page.keyboard.press('Escape');

  // 2. A human edit on disk and an agent's memory_remember over MCP while VS Code is open.
  const memoryMd = join(ws, 'memory', 'MEMORY.md');
  writeFileSync(
    memoryMd,
    `${readFileSync(memoryMd, 'utf8').replace(/\n*$/, '\n')}- Deploys go out on Tuesdays only.\n`,
  );
  const remembered = await rememberOverMcp(repo, ws, {
    text: 'The carrier sandbox rejects requests without an Idempotency-Key header; send one on every POST.',
    type: 'learning',
    tags: ['carrier', 'http'],
  });
  log(`MCP memory_remember → ${remembered.status} ${remembered.id} (${remembered.path})`);
  if (remembered.status !== 'created')
    throw new Error(`memory_remember did not create an entry: ${JSON.stringify(remembered)}`);

  // 3. Memory Changes: the agent's entry under "Written by an agent", the human edit under "Written by a human".
  const header = page.locator('.pane-header', { hasText: 'Memory Changes' }).first();
  await header.waitFor({ timeout: 15_000 });
  if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
  const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Memory Changes' }) }).first();
  await pane.locator('.monaco-list-row', { hasText: 'Written by an agent' }).waitFor({ timeout: 30_000 });
  await pane.locator('.monaco-list-row', { hasText: 'Written by a human' }).waitFor({ timeout: 15_000 });
  const agentRow = pane.locator('.monaco-list-row', { hasText: remembered.id }).first();
  await agentRow.waitFor({ timeout: 15_000 });
  await pane.locator('.monaco-list-row', { hasText: 'memory/MEMORY.md' }).first().waitFor({ timeout: 15_000 });
  log(`Memory Changes lists ${remembered.id} (agent) and memory/MEMORY.md (human)`);
  await screenshot('6-memory-changes');

  // 4. The agent's entry in VS Code's diff editor (HEAD ↔ working tree): inserted lines rendered.
  await agentRow.click();
  await page.locator('.tabs-container .tab.active', { hasText: 'HEAD ↔ working tree' }).waitFor({ timeout: 15_000 });
  const diff = page.locator('.editor-instance .monaco-diff-editor').first();
  await diff.waitFor({ timeout: 15_000 });
  await diff.locator('.line-insert, .char-insert').first().waitFor({ state: 'attached', timeout: 15_000 });
  await diff.locator('.view-line', { hasText: 'Idempotency-Key' }).first().waitFor({ timeout: 15_000 });
  log('diff editor open: HEAD ↔ working tree with the inserted entry lines');
  await screenshot('7-diff-editor');

  // 5. Checkpoint only the agent's file (inline action on its row), then check the commit in git.
  await agentRow.hover();
  await agentRow.locator('.action-label[aria-label="Checkpoint"]').click({ timeout: 15_000 });
  const toast = page
    .locator('.notifications-toasts .notification-list-item-message', { hasText: 'gitmem: checkpoint' })
    .first();
  await toast.waitFor({ timeout: 30_000 });
  const head = git(ws, 'rev-parse', 'HEAD');
  const committed = git(ws, 'show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean);
  const parent = git(ws, 'rev-parse', 'HEAD~1');
  const status = git(ws, 'status', '--porcelain');
  if (parent !== initial) throw new Error(`the checkpoint's parent is ${parent}, not the initial commit ${initial}`);
  if (committed.length !== 1 || committed[0] !== remembered.path)
    throw new Error(`the checkpoint committed ${committed.join(', ')}; expected only ${remembered.path}`);
  if (!/^ ?M memory\/MEMORY\.md$/m.test(status))
    throw new Error(`the human edit should stay uncommitted; git status: ${status}`);
  const message = git(ws, 'log', '-1', '--format=%B');
  if (!message.includes(`Memory-Path: ${remembered.path}`))
    throw new Error(`no Memory-Path trailer in the checkpoint message:\n${message}`);
  await pane
    .locator('.monaco-list-row', { hasText: 'Written by an agent' })
    .waitFor({ state: 'detached', timeout: 30_000 });
  log(
    `Checkpoint → commit ${head.slice(0, 7)} with only ${remembered.path}; MEMORY.md still uncommitted; the agent group left the view`,
  );
  await screenshot('8-checkpointed');

  // 6. Hover lineage on a committed entry line: commit, author, date.
  await page.keyboard.press('Control+P');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill('2026-11-22-bigint-columns-are-strings.md');
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: '2026-11-22-bigint-columns-are-strings.md' })
    .first()
    .click({ timeout: 15_000 });
  await page
    .locator('.tabs-container .tab.active', { hasText: '2026-11-22-bigint-columns-are-strings.md' })
    .waitFor({ timeout: 15_000 });
  const line = page.locator('.editor-instance .monaco-editor .view-line', { hasText: 'Comparing' }).first();
  await line.waitFor({ timeout: 15_000 });
  const short = initial.slice(0, 7);
  let lineage;
  for (let i = 0; i < 5 && !lineage; i++) {
    await page.mouse.move(5, 5);
    await line.locator('span span').nth(2).hover();
    const h = page.locator('.monaco-hover', { hasText: 'gitmem lineage' }).first();
    try {
      await h.waitFor({ timeout: 5_000 });
      lineage = (await h.innerText()).replace(/\s+/g, ' ');
    } catch {
      /* the hover widget can miss the first mouse move: move away and back */
    }
  }
  if (!lineage) throw new Error('no lineage hover on the entry line');
  if (!lineage.includes(short) || !lineage.includes(AUTHOR.name) || !/\d{4}-\d{2}-\d{2}/.test(lineage))
    throw new Error(`lineage hover lacks commit ${short}, author or date: ${lineage}`);
  log(`hover: "${lineage.slice(0, 160)}"`);
  await screenshot('9-hover-lineage');
  await page.mouse.move(5, 5);

  // 7. CodeLens on a code file named in an entry's files: front-matter; it opens the entry.
  await page.keyboard.press('Control+P');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill('src/db/pool.ts');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'pool.ts' }).first().click({ timeout: 15_000 });
  await page.locator('.tabs-container .tab.active', { hasText: 'pool.ts' }).waitFor({ timeout: 15_000 });
  const lens = page.locator('.editor-instance .codelens-decoration', { hasText: '1 memory about this file' }).first();
  await lens.waitFor({ timeout: 30_000 });
  await screenshot('10-codelens');
  // A hover left open by an earlier step would take the click: close it first.
  await page.keyboard.press('Escape');
  await page.mouse.move(900, 700);
  await page
    .locator('.context-view')
    .first()
    .waitFor({ state: 'hidden', timeout: 5_000 })
    .catch(() => undefined);
  await lens.locator('a').first().click();
  await page
    .locator('.tabs-container .tab.active', { hasText: '2026-11-20-postgres-connection-pool.md' })
    .waitFor({ timeout: 15_000 });
  log('CodeLens "1 memory about this file" on src/db/pool.ts opens 2026-11-20-postgres-connection-pool.md');
}
