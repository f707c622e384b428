// B39: nothing is written to the home folder and onnxruntime's telemetry is off (it used to write
// ~/.cache/Microsoft/DeveloperTools/.onnxruntime/ on every model load, and crash with SIGSEGV on a
// command line over ~30 KB). Every host that loads the real model runs as a real process with an
// empty HOME and with a read-only HOME: the CLI (recall, remember), the language server
// (gitmem/recall), the MCP server (memory_recall) and the library entry (dist/index.js). Each must
// answer with vectors (not degraded) and leave HOME exactly as it was. Needs `npm run build`.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, copyFixture, REPO, runCli, tempDir } from '../../support/fixtures.js';
import { initializeSpawned, spawnServer, type SpawnedServer } from '../../support/lsp.js';
import { modelDir } from '../../support/model.js';
import { folderEvents } from '../../support/wait.js';

const MODEL = modelDir();

/** Every path under `dir` (folders too), relative and sorted. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map((p) => relative(dir, join(dir, String(p))))
    .sort();
}

/** A HOME for one case: `empty`, or `read-only` (one file inside, mode 0555 on the folder). */
function makeHome(kind: 'empty' | 'read-only'): string {
  const home = join(tempDir('gitmem-home-'), 'home');
  mkdirSync(home);
  if (kind === 'read-only') {
    writeFileSync(join(home, '.profile'), '# existing\n');
    chmodSync(home, 0o555);
  }
  return home;
}

/** Environment of a user process: this HOME, the model, and telemetry explicitly requested ON. */
function userEnv(home: string): Record<string, string> {
  // ORT_DISABLE_TELEMETRY=0 from the caller must not turn it back on: gitmem overrides it.
  return { HOME: home, GITMEM_MODEL_DIR: MODEL, ORT_DISABLE_TELEMETRY: '0', XDG_CACHE_HOME: '', XDG_DATA_HOME: '' };
}

const spawned: SpawnedServer[] = [];
const homes: string[] = [];
afterAll(() => {
  for (const s of spawned) s.kill();
  for (const h of homes) chmodSync(h, 0o755); // so the run's temp root can be removed
});

for (const kind of ['empty', 'read-only'] as const) {
  describe(`${kind} HOME`, () => {
    const home = makeHome(kind);
    homes.push(home);
    const before = tree(home);

    it('CLI: hybrid recall, remember beside an entry of the same type, and a 30 KB command line', () => {
      const ws = copyFixture('demo');
      const r = runCli(['recall', 'webhook retries', '--json', '--dir', ws], { env: userEnv(home) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.json().mode).toBe('hybrid');
      expect(r.json().degraded).toBeNull();
      expect(r.json().results.length).toBeGreaterThan(0);
      const first = runCli(['remember', 'Webhook receivers must answer within five seconds', '--dir', ws], {
        env: userEnv(home),
      });
      expect(first.code, first.stderr).toBe(0);
      // ~67,500 characters of argv with an entry of the same type present (dedupe embeds both).
      const long = runCli(['remember', 'lorem ipsum dolor sit amet '.repeat(2500), '--dir', ws], {
        env: userEnv(home),
      });
      expect(long.code, `exit ${long.code}: ${long.stderr}`).toBe(0);
      expect(long.stdout).toMatch(/Remembered /);
      expect(tree(home)).toEqual(before);
    });

    it('language server: gitmem/recall with vectors', async () => {
      const ws = copyFixture('demo');
      const s = spawnServer([process.execPath, join(REPO, 'extension', 'dist', 'server.js'), '--stdio'], {
        cwd: ws,
        env: userEnv(home),
      });
      spawned.push(s);
      await initializeSpawned(s, ws);
      // `ready` comes once the keyword index is published; the vectors follow in the background (B41).
      await s.inbox.until(
        () =>
          s.inbox.ready !== undefined && s.inbox.statuses.some((x) => x.state === 'ready' && x.vectorsPending === 0),
        'gitmem/ready and the vectors caught up',
        120_000,
      );
      const r: any = await s.client.sendRequest('gitmem/recall', { query: 'webhook retries', mode: 'hybrid' });
      expect(r.degraded, s.stderr()).toBeNull();
      expect(r.results.length).toBeGreaterThan(0);
      await s.client.sendRequest('shutdown');
      await s.client.sendNotification('exit');
      expect(await s.exited()).toBe(0);
      expect(tree(home)).toEqual(before);
    });

    it('MCP server: memory_recall with vectors', async () => {
      const ws = copyFixture('demo');
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--dir', ws],
        stderr: 'pipe',
        env: { ...(process.env as Record<string, string>), ...userEnv(home) },
      });
      const client = new Client({ name: 'gitmem-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        // The server answers once the keyword index is published and embeds in the background (B41):
        // ask again after each write to the index folder (a vector checkpoint is one) until the vectors
        // caught up (the answer says so), at most 90 s (the test's own limit is 120 s).
        const ask = async () =>
          (await client.callTool({
            name: 'memory_recall',
            arguments: { query: 'webhook retries', mode: 'hybrid' },
          })) as { isError?: boolean; structuredContent?: any };
        const embedding = (x: { isError?: boolean; structuredContent?: any }) =>
          !x.isError && /still being embedded/.test(String(x.structuredContent?.degraded));
        let r = await ask();
        const saves = folderEvents(join(ws, '.gitmem'));
        try {
          for (const end = Date.now() + 90_000; embedding(r);) {
            const n = saves.count;
            r = await ask();
            if (embedding(r)) await saves.after(n, 'a vector checkpoint in the index folder', end - Date.now());
          }
        } finally {
          saves.close();
        }
        expect(r.isError).not.toBe(true);
        expect(r.structuredContent.degraded).toBeNull();
        expect(r.structuredContent.results.length).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
      expect(tree(home)).toEqual(before);
    });

    it('library entry (dist/index.js): GitmemMemoryBackend hybrid recall', () => {
      const ws = copyFixture('demo');
      const script = [
        `import { GitmemMemoryBackend, recall } from ${JSON.stringify(pathToFileURL(join(REPO, 'dist', 'index.js')).href)};`,
        `const b = new GitmemMemoryBackend({ modelDir: ${JSON.stringify(MODEL)} });`,
        `const m = await b.memoryFor(${JSON.stringify(ws)});`,
        `const r = await recall(m.context, 'webhook retries', { mode: 'hybrid' });`,
        `console.log(JSON.stringify({ degraded: r.degraded, n: r.results.length }));`,
        `await b.dispose();`,
      ].join('\n');
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: ws,
        encoding: 'utf8',
        env: { ...process.env, ...userEnv(home) },
        timeout: 120_000,
      });
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
      expect(out.degraded).toBeNull();
      expect(out.n).toBeGreaterThan(0);
      expect(tree(home)).toEqual(before);
    });
  });
}
