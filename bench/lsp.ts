// Language-server latency on the 10,000-file benchmark workspace (bench/perf.ts generator), over a
// real `gitmem lsp --stdio` process: initialize round trip, time to gitmem/ready (cold: no index;
// warm: persisted index), gitmem/recall P50/P95, hover and completion round trips.
// Run: npm run build && npx esbuild bench/lsp.ts --bundle --platform=node --format=esm \
//        --outfile=/tmp/lsp-bench.mjs --external:onnxruntime-node && node /tmp/lsp-bench.mjs [files]
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateWorkspace } from './perf.js';
import { spawnLsp } from './support/lsp-process.js';

const CLI = resolve(process.cwd(), 'dist', 'cli.cjs');
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function session(root: string, label: string, queries: string[]) {
  const { conn } = spawnLsp(CLI, root, { GITMEM_MODEL_DIR: join(root, 'no-model') });
  let readyAt = 0;
  let ready: unknown;
  const readyP = new Promise<void>((r) =>
    conn.onNotification('gitmem/ready', (p) => ((ready = p), (readyAt = performance.now()), r())),
  );
  conn.onNotification('gitmem/status', () => undefined);
  conn.onNotification('textDocument/publishDiagnostics', () => undefined);
  conn.onNotification('window/logMessage', (m: { message: string }) => {
    if (m.message.includes('ready in')) console.log(`  server: ${m.message}`);
  });
  conn.onRequest('client/registerCapability', () => null);
  conn.listen();
  const t0 = performance.now();
  await conn.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
  });
  const initMs = performance.now() - t0;
  await conn.sendNotification('initialized', {});
  await readyP;
  const recallMs: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await conn.sendRequest('gitmem/recall', { query: q, mode: 'keyword' });
    recallMs.push(performance.now() - t);
  }
  const file = readdirSync(join(root, 'memory', 'entries')).find((f) => f.endsWith('.md'))!;
  const uri = pathToFileURL(join(root, 'memory', 'entries', file)).href;
  const hoverMs: number[] = [];
  const completionMs: number[] = [];
  for (let i = 0; i < 20; i++) {
    let t = performance.now();
    await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 5 } });
    hoverMs.push(performance.now() - t);
    t = performance.now();
    await conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 2, character: 6 } });
    completionMs.push(performance.now() - t);
  }
  await conn.sendRequest('shutdown');
  await conn.sendNotification('exit');
  console.log(
    `${label}: initialize ${initMs.toFixed(1)} ms; gitmem/ready ${(readyAt - t0).toFixed(0)} ms ${JSON.stringify(ready)}; ` +
      `recall P50 ${pct(recallMs, 50).toFixed(1)} ms P95 ${pct(recallMs, 95).toFixed(1)} ms (${recallMs.length} queries); ` +
      `hover P50 ${pct(hoverMs, 50).toFixed(1)} ms; completion P50 ${pct(completionMs, 50).toFixed(1)} ms`,
  );
}

const files = Number(process.argv[2] ?? 10_000);
const root = join(mkdtempSync(join(tmpdir(), 'gitmem-lsp-bench-')), 'ws');
const gen = generateWorkspace(root, files);
console.log(`workspace: ${gen.files} files, ${(gen.bytes / 1e6).toFixed(1)} MB`);
const queries = [
  'database connection pool',
  'retry webhook',
  'flaky test',
  'cache invalidation',
  'deploy rollback',
  'auth token refresh',
  'memory leak',
  'rate limit',
  'schema migration',
  'logging format',
];
await session(root, 'cold (no index)', [...queries, ...queries]);
await session(root, 'warm (persisted index)', [...queries, ...queries]);
rmSync(join(root, '..'), { recursive: true, force: true });
