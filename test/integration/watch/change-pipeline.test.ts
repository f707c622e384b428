// Issue #44 item 2: one change pipeline. `gitmem watch`'s Memory, the language server and the MCP
// server all feed the engine's one change queue (engine/freshness/change-queue.ts), which checks HEAD before each
// pass: after a REAL `git checkout` in a temp repository the files git changed are re-indexed in each
// host. The MCP server's writes cost the files they changed, not a walk of the workspace (its reads
// still bring the index up to date first, and find the checkout). And nothing is lost: a file written while a rebuild runs is in
// the index afterwards. Every wait is for an event or a condition re-checked per answer, never a sleep.
// Build first (`npm run build`).
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientCapabilities } from 'vscode-languageserver-protocol';
import { CLI, git } from '../../support/fixtures.js';
import { CAPABILITIES, spawnServer, type SpawnedServer } from '../../support/lsp.js';
import { paths, watchWorkspace, workspace, type Watched } from '../../support/watch.js';

const entry = (i: number, word: string) =>
  `---\nid: e-${i}\ntype: learning\n---\nEntry ${i} about ${word} and the shipping queue.\n`;
const MAIN_SET = ['memory/entries/e-0.md', 'memory/entries/e-1.md', 'memory/entries/e-2.md'];
const FEAT_SET = ['memory/entries/e-1.md', 'memory/entries/e-2.md', 'memory/entries/e-20.md'];
const GIT_CHANGED = [
  'memory/entries/e-0.md',
  'memory/entries/e-1.md',
  'memory/entries/e-2.md',
  'memory/entries/e-20.md',
];

/** A committed workspace on `main` (e-0..e-2 say zqmainx) and a `feature` branch (e-1, e-2, e-20 say zqfeatx). */
function twoBranches(): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) files[`memory/entries/e-${i}.md`] = entry(i, i < 3 ? 'zqmainx' : 'common');
  const root = workspace(files);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'main');
  git(root, 'switch', '-q', '-c', 'feature');
  git(root, 'rm', '-q', 'memory/entries/e-0.md');
  for (const i of [1, 2]) writeFileSync(join(root, `memory/entries/e-${i}.md`), entry(i, 'zqfeatx'));
  writeFileSync(join(root, 'memory/entries/e-20.md'), entry(20, 'zqfeatx'));
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'feature');
  git(root, 'switch', '-q', 'main');
  return root;
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Ask `answer` again after each answer until `ok` holds (each answer is a round trip: no sleep). */
async function untilAnswer<T>(answer: () => Promise<T>, ok: (t: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const t = await answer();
    if (ok(t) || Date.now() > deadline) return t;
  }
}

describe('gitmem watch: one queue, nothing lost', () => {
  it('a file written while a rebuild runs is indexed once the rebuild is done', async () => {
    const root = twoBranches();
    const w: Watched = await watchWorkspace(root, { gitdir: join(root, '.git') });
    cleanup.push(() => rmSync(dirname(root), { recursive: true, force: true }));
    cleanup.push(() => w.stop());
    const rebuilding = w.mem.index({ rebuild: true });
    writeFileSync(join(root, 'memory/entries/late.md'), entry(99, 'zqlatex'));
    await rebuilding;
    await w.until(async () => (await paths(w.mem, 'zqlatex')).includes('memory/entries/late.md'));
    expect(await paths(w.mem, 'zqlatex')).toEqual(['memory/entries/late.md']);
    expect(w.mem.context.freshness.changes.followsHead).toBe(true);
  }, 60_000);
});

describe('gitmem mcp: writes cost the files they changed', () => {
  it('remember and observe walk nothing and are found by the next recall; a git checkout is found too', async () => {
    const root = twoBranches();
    cleanup.push(() => rmSync(dirname(root), { recursive: true, force: true }));
    let stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--debug', 'mcp', '--dir', root],
      stderr: 'pipe',
      env: {
        ...(process.env as Record<string, string>),
        NO_COLOR: '1',
        GITMEM_HOST_AUTOSTART: '',
        GIT_AUTHOR_NAME: 'Test',
        GIT_AUTHOR_EMAIL: 'test@example.com',
        GIT_COMMITTER_NAME: 'Test',
        GIT_COMMITTER_EMAIL: 'test@example.com',
      },
    });
    const onStderr: (() => void)[] = [];
    transport.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      for (const f of onStderr) f();
    });
    /** Resolves once stderr matches `re` (checked on each chunk), or rejects after 15 s. */
    const stderrMatches = (re: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const check = () => re.test(stderr) && (clearTimeout(timer), resolve());
        const timer = setTimeout(() => reject(new Error(`stderr never matched ${re}: ${stderr}`)), 15_000);
        onStderr.push(check);
        check();
      });
    const client = new Client({ name: 'gitmem-test', version: '1.0.0' });
    await client.connect(transport);
    cleanup.push(() => client.close());
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args })) as {
        isError?: boolean;
        structuredContent?: Record<string, any>;
        content: { text: string }[];
      };
      if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
      return r.structuredContent ?? {};
    };
    const recallPaths = async (q: string) =>
      [
        ...new Set(
          ((await call('memory_recall', { query: q, mode: 'keyword' })).results as { path: string }[]).map(
            (r) => r.path,
          ),
        ),
      ].sort();

    expect(await recallPaths('zqmainx')).toEqual(MAIN_SET);
    // A read walks (the instrument works: each walk says so at debug level)...
    await stderrMatches(/walked the workspace/);
    const afterStart = stderr.length;
    const r1 = await call('memory_remember', {
      text: 'The deploy window closes at 17:00 on Fridays.',
      type: 'learning',
    });
    const r2 = await call('memory_remember', {
      text: 'Retries back off exponentially up to 64 seconds.',
      type: 'learning',
    });
    const again = await call('memory_remember', {
      text: 'The deploy window closes at 17:00 on Fridays.',
      type: 'learning',
    });
    await call('memory_observe', { text: 'looked at the zqobservedx deploy window' });
    expect([r1.status, r2.status, again.status]).toEqual(['created', 'created', 'duplicate']);
    // ...the writes do not: the repeat was found through the index, which had the first write's path.
    const afterWrites = stderr.slice(afterStart);
    expect(afterWrites).not.toMatch(/walked the workspace/);
    expect(await recallPaths('deploy window Fridays')).toContain(r1.path);
    expect(await recallPaths('zqobservedx')).toEqual([expect.stringMatching(/\d{4}-\d{2}-\d{2}\.md$/)]);

    git(root, 'switch', '-q', 'feature');
    const switched = await untilAnswer(
      () => recallPaths('zqmainx zqfeatx'),
      (p) => JSON.stringify(p) === JSON.stringify(FEAT_SET),
    );
    expect(switched).toEqual(FEAT_SET);
    expect(await recallPaths('zqmainx')).toEqual([]);
  }, 90_000);
});

describe('gitmem lsp: the same queue and HEAD check', () => {
  const ENV = { GITMEM_MODEL_DIR: '/nonexistent-model', GITMEM_HOST_AUTOSTART: '' };
  const NO_WATCHER: ClientCapabilities = {
    workspace: { workspaceEdit: { documentChanges: true } },
    window: { workDoneProgress: false },
  };

  async function start(root: string, capabilities: ClientCapabilities): Promise<SpawnedServer> {
    const s = spawnServer([process.execPath, CLI, 'lsp', '--stdio'], { cwd: root, env: ENV });
    cleanup.push(() => s.kill());
    await s.client.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'ws' }],
      capabilities,
    });
    await s.client.sendNotification('initialized', {});
    await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready', 40_000);
    return s;
  }
  const recallPaths = async (s: SpawnedServer, query: string): Promise<string[]> => {
    const r: any = await s.client.sendRequest('gitmem/recall', { query, mode: 'keyword', limit: 20 });
    return [...new Set<string>(r.results.map((x: { path: string }) => x.path))].sort();
  };

  it('with its own watcher (real chokidar events), a git checkout re-indexes the files git changed', async () => {
    const root = twoBranches();
    cleanup.push(() => rmSync(dirname(root), { recursive: true, force: true }));
    const s = await start(root, NO_WATCHER);
    await s.inbox.until(() => s.inbox.logs.some((l) => l.includes('watching the workspace')), 'the watcher', 15_000);
    expect(await recallPaths(s, 'zqmainx zqfeatx')).toEqual(MAIN_SET);
    git(root, 'switch', '-q', 'feature');
    const after = await untilAnswer(
      () => recallPaths(s, 'zqmainx zqfeatx'),
      (p) => JSON.stringify(p) === JSON.stringify(FEAT_SET),
    );
    expect(after).toEqual(FEAT_SET);
  }, 90_000);

  it('with a client watcher that reports one file of a checkout, the HEAD check re-indexes every file git changed', async () => {
    const root = twoBranches();
    cleanup.push(() => rmSync(dirname(root), { recursive: true, force: true }));
    const s = await start(root, CAPABILITIES);
    expect(await recallPaths(s, 'zqmainx zqfeatx')).toEqual(MAIN_SET);
    git(root, 'switch', '-q', 'feature');
    // An editor's watcher coalesces or drops events of a checkout: here it reports e-1 only.
    await s.client.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: pathToFileURL(join(root, GIT_CHANGED[1]!)).href, type: 2 }],
    });
    const after = await untilAnswer(
      () => recallPaths(s, 'zqmainx zqfeatx'),
      (p) => JSON.stringify(p) === JSON.stringify(FEAT_SET),
      20_000,
    );
    // Before the one queue, only e-1 was re-indexed: e-0 stayed (main's) and e-20 was missing.
    expect(after).toEqual(FEAT_SET);
    const status: any = await s.client.sendRequest('gitmem/getStatus', {});
    expect(status.state).toBe('ready');
  }, 90_000);
});
