// Test support for the watcher: a real workspace in a temp folder, a Memory watching it with real
// chokidar events, and event-driven waits (no sleeps as synchronisation: every wait is for an
// onDidChange event or a condition re-checked on each event, with a timeout).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileWatcher } from '../../src/core/ports.js';
import { createIndexStorage } from '../../src/platform/index-storage.js';
import { createNodeFs } from '../../src/platform/node-fs.js';
import { createChokidarWatcher, type ChokidarWatcherOptions } from '../../src/platform/watcher.js';
import { createMemory, type Memory, type MemoryChangeEvent } from '../../src/service/memory.js';
import { Arrivals } from './arrivals.js';
import { tempDir } from './fixtures.js';
import { recall } from '../../src/service/recall/recall.js';

export interface Watched {
  readonly root: string;
  readonly indexDir: string;
  readonly mem: Memory;
  readonly events: MemoryChangeEvent[];
  readonly warnings: string[];
  watcher(): FileWatcher | undefined;
  /** Resolve with the first event (counting from now) that satisfies `accept`. */
  next(accept?: (e: MemoryChangeEvent) => boolean, timeoutMs?: number): Promise<MemoryChangeEvent>;
  /** Resolve once `cond()` holds, re-checking after every change event. */
  until(cond: () => Promise<boolean> | boolean, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** A workspace folder (default layout, no embedding model) with `files` written under it. */
export function workspace(files: Record<string, string> = {}, config: Record<string, unknown> = {}): string {
  const root = join(tempDir('gitmem-watch-'), 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  writeFileSync(
    join(root, 'gitmem.config.json'),
    JSON.stringify({ version: 1, layout: 'default', model: { enabled: false }, ...config }),
  );
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

export async function openMemory(root: string, indexDir: string, extra: { gitdir?: string } = {}): Promise<Memory> {
  return createMemory({
    fs: createNodeFs(root),
    openStorage: () => createIndexStorage(indexDir),
    freshness: 'manual',
    lexicalWorker: false,
    ...(extra.gitdir ? { gitdir: extra.gitdir } : {}),
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
}

/** Start watching `root` with real chokidar. */
export async function watchWorkspace(
  root: string,
  options: { indexDir?: string; gitdir?: string; watcher?: Partial<ChokidarWatcherOptions> } = {},
): Promise<Watched> {
  const indexDir = options.indexDir ?? join(tempDir('gitmem-watch-idx-'), 'index');
  const mem = await openMemory(root, indexDir, options.gitdir ? { gitdir: options.gitdir } : {});
  const arrivals = new Arrivals<MemoryChangeEvent>();
  const events = arrivals.items;
  const warnings: string[] = [];
  mem.onDidChange((e) => arrivals.push(e));
  let watcher: FileWatcher | undefined;
  await mem.startWatching(
    (w) => {
      watcher = createChokidarWatcher({
        ...w,
        ...options.watcher,
        onWarning: (m) => {
          warnings.push(m);
          w.onWarning?.(m);
        },
      });
      return watcher;
    },
    { debounceMs: 40 },
  );
  const next = (accept: (e: MemoryChangeEvent) => boolean = () => true, timeoutMs = 15_000) =>
    arrivals.next(
      accept,
      timeoutMs,
      (start) => `no matching change event within ${timeoutMs} ms (events: ${JSON.stringify(events.slice(start))})`,
    );
  const until = async (cond: () => Promise<boolean> | boolean, timeoutMs = 20_000) => {
    if (await cond()) return;
    await new Promise<void>((resolve, reject) => {
      let busy = false;
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`condition not met within ${timeoutMs} ms`));
      }, timeoutMs);
      const stop = arrivals.onArrival(() => {
        if (busy) return;
        busy = true;
        void Promise.resolve(cond()).then((ok) => {
          busy = false;
          if (!ok) return;
          clearTimeout(timer);
          stop();
          resolve();
        });
      });
    });
  };
  return {
    root,
    indexDir,
    mem,
    events,
    warnings,
    watcher: () => watcher,
    next,
    until,
    async stop() {
      await mem.stopWatching();
      await mem.dispose();
    },
  };
}

/** Paths of keyword recall results (all results, deduplicated in order). */
export async function paths(mem: Memory, query: string): Promise<string[]> {
  const res = await recall(mem.context, query, { mode: 'keyword', limit: 50 });
  return [...new Set(res.results.map((r) => r.path))];
}

/** Keyword answers of `mem` and of a Memory freshly built over the same files, for each query. */
export async function sameAsRebuild(mem: Memory, root: string, queries: readonly string[]): Promise<boolean> {
  const fresh = await openMemory(root, join(tempDir('gitmem-rebuild-'), 'index'));
  try {
    await fresh.index();
    for (const q of queries) {
      const a = (await recall(mem.context, q, { mode: 'keyword', limit: 50 })).results.map(
        (r) => `${r.path}:${r.startLine}:${r.score}`,
      );
      const b = (await recall(fresh.context, q, { mode: 'keyword', limit: 50 })).results.map(
        (r) => `${r.path}:${r.startLine}:${r.score}`,
      );
      if (JSON.stringify(a) !== JSON.stringify(b)) return false;
    }
    return true;
  } finally {
    await fresh.dispose();
  }
}
