// Editor latency while the language server embeds: a real `gitmem lsp --stdio` with the real model,
// after gitmem/ready `count` new entry files arrive through workspace/didChangeWatchedFiles, and
// hover + completion requests run back to back until the update (keyword + embedding) is done.
// Run twice in the same bench: `before` from a copy of dist/cli.cjs with no embed-worker.js beside it
// (the session runs on the server's main thread, as before), `after` from dist/ (worker thread).
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnLsp } from './support/lsp-process.js';

export interface LspEmbedRow {
  readonly setting: 'before' | 'after';
  readonly requests: number;
  readonly hoverP50: number;
  readonly hoverP95: number;
  readonly completionP50: number;
  readonly completionP95: number;
  /** How long the update with embedding took, ms. */
  readonly updateMs: number;
}

/** Goal: hover and completion P95 under this many ms while embedding runs. */
export const LSP_EMBED_GOAL_MS = 20;

const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN;

function entry(i: number, paragraphs: number): string {
  const para = (k: number) =>
    `Paragraph ${k} of note ${i}: the deploy pipeline retries webhooks with exponential back-off, and the cache keys include the tenant id so that a rollback never serves stale data.`;
  return `---\nid: bulk-${i}\ntype: learning\ntitle: bulk note ${i}\n---\n\n${Array.from({ length: paragraphs }, (_, k) => para(k)).join('\n\n')}\n`;
}

async function one(
  cli: string,
  modelDir: string,
  setting: LspEmbedRow['setting'],
  count: number,
): Promise<LspEmbedRow> {
  const root = join(mkdtempSync(join(tmpdir(), 'gitmem-lsp-embed-')), 'ws');
  mkdirSync(join(root, 'memory', 'entries'), { recursive: true });
  writeFileSync(join(root, 'memory', 'MEMORY.md'), '# Memory\n\n- The staging database is reset every night.\n');
  writeFileSync(join(root, 'memory', 'entries', 'first.md'), entry(0, 1));
  const { child, conn } = spawnLsp(cli, root, { GITMEM_MODEL_DIR: modelDir });
  let status = '';
  let statusWaiter: ((s: string) => void) | undefined;
  const readyP = new Promise<void>((r) => conn.onNotification('gitmem/ready', () => r()));
  conn.onNotification('gitmem/status', (p: { state: string; message?: string }) => {
    status = `${p.state}: ${p.message ?? ''}`;
    statusWaiter?.(status);
  });
  conn.onNotification('textDocument/publishDiagnostics', () => undefined);
  conn.onNotification('window/logMessage', () => undefined);
  conn.onRequest('client/registerCapability', () => null);
  conn.listen();
  try {
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } } },
    });
    await conn.sendNotification('initialized', {});
    await readyP;
    const uri = pathToFileURL(join(root, 'memory', 'entries', 'first.md')).href;
    // Warm both paths once before the window.
    await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 5 } });
    await conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 2, character: 6 } });
    const changes = [];
    for (let i = 1; i <= count; i++) {
      const p = join(root, 'memory', 'entries', `bulk-${i}.md`);
      writeFileSync(p, entry(i, 6));
      changes.push({ uri: pathToFileURL(p).href, type: 1 });
    }
    // The window opens as the notification is sent (a blocked server sends its 'indexing' status
    // late, so waiting for it would hide the block) and closes at the 'ready' after 'indexing'.
    let done = false;
    let sawIndexing = false;
    const finished = new Promise<void>(
      (r) =>
        (statusWaiter = (s) => {
          if (s.startsWith('indexing')) sawIndexing = true;
          else if (sawIndexing && s.startsWith('ready')) {
            done = true;
            r();
          }
        }),
    );
    await conn.sendNotification('workspace/didChangeWatchedFiles', { changes });
    const t0 = performance.now();
    const hover: number[] = [];
    const completion: number[] = [];
    while (!done && performance.now() - t0 < 300_000) {
      let t = performance.now();
      await conn.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 5 } });
      if (!done) hover.push(performance.now() - t);
      t = performance.now();
      await conn.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 2, character: 6 } });
      if (!done) completion.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    await finished;
    const updateMs = performance.now() - t0;
    await conn.sendRequest('shutdown');
    await conn.sendNotification('exit');
    return {
      setting,
      requests: hover.length + completion.length,
      hoverP50: pct(hover, 50),
      hoverP95: pct(hover, 95),
      completionP50: pct(completion, 50),
      completionP95: pct(completion, 95),
      updateMs,
    };
  } finally {
    child.kill();
    rmSync(join(root, '..'), { recursive: true, force: true });
  }
}

/**
 * Both settings, `before` first. @returns undefined when dist/ or the model is missing.
 * @param count new entry files (6 paragraphs each) the update embeds.
 */
export async function measureLspDuringEmbed(
  repo: string,
  modelDir: string,
  count = 30,
): Promise<LspEmbedRow[] | undefined> {
  const dist = join(repo, 'dist');
  if (!existsSync(join(dist, 'cli.js')) || !existsSync(join(dist, 'embed-worker.js')) || !existsSync(modelDir))
    return undefined;
  // The copy stays inside the repository so onnxruntime-node (external to the bundle) resolves.
  mkdirSync(join(repo, '.cache'), { recursive: true });
  const inline = mkdtempSync(join(repo, '.cache', 'lsp-inline-'));
  try {
    cpSync(dist, inline, { recursive: true, filter: (src) => !src.endsWith('embed-worker.js') });
    return [
      await one(resolve(inline, 'cli.js'), modelDir, 'before', count),
      await one(join(dist, 'cli.js'), modelDir, 'after', count),
    ];
  } finally {
    rmSync(inline, { recursive: true, force: true });
  }
}

export function formatLspEmbed(rows: readonly LspEmbedRow[]): string[] {
  const f = (x: number) => x.toFixed(1).padStart(7);
  const out = [
    `${'editor latency during a re-embed (ms)'.padEnd(44)} ${'hover P50'.padStart(9)} ${'P95'.padStart(7)} ${'compl. P50'.padStart(10)} ${'P95'.padStart(7)}  goal`,
  ];
  for (const r of rows) {
    const label = r.setting === 'before' ? 'before: session on the main thread' : 'after: session in a worker thread';
    const worst = Math.max(r.hoverP95, r.completionP95);
    out.push(
      `${`${label} (${r.requests} req, ${(r.updateMs / 1000).toFixed(1)} s)`.padEnd(44)} ${f(r.hoverP50).padStart(9)} ${f(r.hoverP95)} ${f(r.completionP50).padStart(10)} ${f(r.completionP95)}  P95 < ${LSP_EMBED_GOAL_MS} ms: ${worst < LSP_EMBED_GOAL_MS ? 'met' : 'not met'}`,
    );
  }
  return out;
}
