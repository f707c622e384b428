// Recall while the language server embeds: a real `gitmem lsp --stdio` with the real model.
// `update`: after gitmem/ready, `files` new entry files (6 paragraphs each) arrive through
// workspace/didChangeWatchedFiles; `delayMs` after the server's `indexing` status one hybrid gitmem/recall is sent. Reported: how
// long that recall took, whether it was answered before the update's vectors were done, what it said
// (degraded / vectorsPending), and how long the whole update took (until the server's status says
// nothing is left to embed). `open`: a workspace whose one daily note has `lines` bullet lines and
// no index yet: ms from `initialized` to gitmem/ready, to the first recall that answers with hits,
// and to the vectors all embedded. Run by scripts/bench-recall-during-embed.mjs for two builds.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node.js';

interface Status {
  state: string;
  message?: string;
  chunks?: number;
  vectors?: number | null;
  vectorsPending?: number;
}

function entry(i: number, paragraphs: number): string {
  const para = (k: number) =>
    `Paragraph ${k} of note ${i}: the deploy pipeline retries webhooks with exponential back-off, and the cache keys include the tenant id so that a rollback never serves stale data.`;
  return `---\nid: bulk-${i}\ntype: learning\ntitle: bulk note ${i}\n---\n\n${Array.from({ length: paragraphs }, (_, k) => para(k)).join('\n\n')}\n`;
}

/** A server process and a client on its stdio; `statuses` collects gitmem/status with arrival times. */
function server(cli: string, root: string, modelDir: string) {
  const child = spawn(process.execPath, [cli, 'lsp', '--stdio'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, GITMEM_MODEL_DIR: modelDir, GITMEM_NO_HOST: '1' },
  });
  const tee = new PassThrough();
  child.stdout.pipe(tee);
  const conn: ProtocolConnection = createProtocolConnection(
    new StreamMessageReader(tee),
    new StreamMessageWriter(child.stdin),
  );
  const statuses: { at: number; s: Status }[] = [];
  let ready = 0;
  const waiters: (() => void)[] = [];
  const poke = () => waiters.splice(0).forEach((w) => w());
  conn.onNotification('gitmem/status', (s: Status) => {
    statuses.push({ at: performance.now(), s });
    poke();
  });
  conn.onNotification('gitmem/ready', () => {
    ready = performance.now();
    poke();
  });
  conn.onNotification('textDocument/publishDiagnostics', () => undefined);
  conn.onNotification('window/logMessage', () => undefined);
  conn.onNotification('$/progress', () => undefined);
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  conn.listen();
  const until = async (test: () => boolean, ms = 600_000) => {
    const t = performance.now();
    while (!test()) {
      if (performance.now() - t > ms) throw new Error('timed out');
      await new Promise<void>((r) => {
        waiters.push(r);
        setTimeout(r, 100);
      });
    }
  };
  return {
    conn,
    statuses,
    readyAt: () => ready,
    until,
    async init(): Promise<number> {
      await conn.sendRequest('initialize', {
        processId: process.pid,
        rootUri: pathToFileURL(root).href,
        capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } }, window: {} },
      });
      const t = performance.now();
      await conn.sendNotification('initialized', {});
      return t;
    },
    async close() {
      await conn.sendRequest('shutdown').catch(() => undefined);
      await conn.sendNotification('exit').catch(() => undefined);
      child.kill();
    },
  };
}

/**
 * Vectors are done: the first `ready` status after `after` (and after an `indexing` one, with
 * `afterIndexing`) that has no chunks left to embed (builds without `vectorsPending`: that `ready`).
 */
function vectorsDone(
  statuses: readonly { at: number; s: Status }[],
  after: number,
  afterIndexing = false,
): number | undefined {
  const from = afterIndexing ? statuses.find((x) => x.at > after && x.s.state === 'indexing')?.at : after;
  if (from === undefined) return undefined;
  return statuses.find((x) => x.at > from && x.s.state === 'ready' && !x.s.vectorsPending)?.at;
}

export interface UpdateRow {
  readonly chunks: number;
  readonly recallMs: number;
  readonly answeredBeforeVectors: boolean;
  /** Hits from the files of the update (the answer came from the updated keyword index). */
  readonly newHits: number;
  readonly degraded: string | null;
  readonly vectorsPending: number | null;
  readonly updateMs: number;
}

export async function measureUpdate(cli: string, modelDir: string, files = 50, delayMs = 300): Promise<UpdateRow> {
  const root = join(mkdtempSync(join(tmpdir(), 'gitmem-recall-embed-')), 'ws');
  mkdirSync(join(root, 'memory', 'entries'), { recursive: true });
  writeFileSync(join(root, 'memory', 'MEMORY.md'), '# Memory\n\n- The staging database is reset every night.\n');
  writeFileSync(join(root, 'memory', 'entries', 'first.md'), entry(0, 1));
  const s = server(cli, root, modelDir);
  try {
    await s.init();
    await s.until(() => s.readyAt() > 0 && vectorsDone(s.statuses, 0) !== undefined);
    const before = s.statuses.at(-1)!.s.chunks ?? 0;
    const changes = [];
    for (let i = 1; i <= files; i++) {
      const p = join(root, 'memory', 'entries', `bulk-${i}.md`);
      writeFileSync(p, entry(i, 6));
      changes.push({ uri: pathToFileURL(p).href, type: 1 });
    }
    const t0 = performance.now();
    await s.conn.sendNotification('workspace/didChangeWatchedFiles', { changes });
    // `delayMs` after the server says it is updating (its debounce has passed and the batch runs).
    await s.until(() => s.statuses.some((x) => x.at > t0 && x.s.state === 'indexing'));
    await new Promise((r) => setTimeout(r, delayMs));
    const tr = performance.now();
    const res = (await s.conn.sendRequest('gitmem/recall', { query: 'webhook retries tenant cache rollback' })) as {
      degraded: string | null;
      vectorsPending?: number;
      results: { path: string }[];
    };
    const answered = performance.now();
    await s.until(() => vectorsDone(s.statuses, t0, true) !== undefined);
    const done = vectorsDone(s.statuses, t0, true)!;
    const chunks = (s.statuses.at(-1)!.s.chunks ?? 0) - before;
    return {
      chunks,
      recallMs: answered - tr,
      answeredBeforeVectors: answered < done,
      newHits: res.results.filter((h) => h.path.includes('bulk-')).length,
      degraded: res.degraded,
      vectorsPending: res.vectorsPending ?? null,
      updateMs: done - t0,
    };
  } finally {
    await s.close();
    rmSync(join(root, '..'), { recursive: true, force: true });
  }
}

export interface OpenRow {
  readonly lines: number;
  readonly chunks: number;
  readonly readyMs: number;
  readonly firstHitsMs: number;
  readonly vectorsMs: number;
}

export async function measureOpen(cli: string, modelDir: string, lines = 3000): Promise<OpenRow> {
  const root = join(mkdtempSync(join(tmpdir(), 'gitmem-open-embed-')), 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  writeFileSync(join(root, 'memory', 'MEMORY.md'), '# Memory\n\n- The staging database is reset every night.\n');
  const body = Array.from(
    { length: lines },
    (_, i) =>
      `- ${String(8 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} step ${i}: checked the webhook queue of tenant ${i % 97}, cache ${i % 13} warm`,
  );
  writeFileSync(join(root, 'memory', '2026-11-30.md'), `# 2026-11-30\n\n${body.join('\n')}\n`);
  const s = server(cli, root, modelDir);
  try {
    const t0 = await s.init();
    let firstHits = 0;
    // Ask until an answer has hits (a server still building answers empty, B31).
    while (firstHits === 0) {
      const res = (await s.conn.sendRequest('gitmem/recall', { query: 'webhook queue tenant 42' })) as {
        results: unknown[];
      };
      if (res.results.length > 0) firstHits = performance.now();
      else await new Promise((r) => setTimeout(r, 100));
    }
    await s.until(() => s.readyAt() > 0 && vectorsDone(s.statuses, 0) !== undefined);
    return {
      lines,
      chunks: s.statuses.at(-1)!.s.chunks ?? 0,
      readyMs: s.readyAt() - t0,
      firstHitsMs: firstHits - t0,
      vectorsMs: vectorsDone(s.statuses, 0)! - t0,
    };
  } finally {
    await s.close();
    rmSync(join(root, '..'), { recursive: true, force: true });
  }
}
