// The recall loop every converted-dataset benchmark shares (LoCoMo, MemoryCode): for each workspace
// of a converted folder, open the product's Memory once per variant (mode + recall config written to
// gitmem.config.json), index it (derived state optionally kept in a cache folder), and answer each
// of its questions through the caller's `ask` (the service's recall, or MCP `memory_recall`),
// collecting latency, degraded answers and result spans. Nothing here scores: callers do.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createIndexStorage } from '../src/platform/index-storage.js';
import { createNodeFs } from '../src/platform/node-fs.js';
import { createMemory, type Memory } from '../src/service/memory.js';
import type { RecallMode, RecallResponse } from '../src/service/recall/types.js';

/** A named run: a mode with its own recall config (merged over the common config). */
export interface Variant {
  readonly label: string;
  readonly mode: RecallMode;
  readonly config?: Record<string, unknown>;
}

/** One question's answer, as the runner hands it to the caller. */
export interface Answered<Q> {
  readonly variant: Variant;
  readonly workspace: string;
  readonly query: Q;
  readonly response: RecallResponse;
  readonly ms: number;
}

/** What a run measured besides the answers. */
export interface RunStats {
  indexMs: number;
  embedded: number;
  degraded: number;
  maxSpan: number;
  meanSpan: number;
  p50Ms: number;
  p95Ms: number;
}

/** The question date of a workspace of daily notes: the day after its last note (YYYY-MM-DD), or undefined. */
export function dayAfterLastNote(root: string): string | undefined {
  let days: string[] = [];
  try {
    days = readdirSync(join(root, 'memory'))
      .map((f) => f.slice(0, 10))
      .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))
      .sort();
  } catch {
    return undefined; // no memory/ folder: no daily notes to date the questions by
  }
  return days.length
    ? new Date(Date.parse(`${days[days.length - 1]}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    : undefined;
}

/**
 * Make `root` a git repository with one commit per memory file, in path order, each dated by the
 * file's day (a daily note's `YYYY-MM-DD` name; else `fallbackDay`) and authored by one person: the
 * history a workspace kept in git has, so the block shows its provenance labels as in use.
 * Idempotent (a root that has `.git` is left as it is). Sets its own identity; needs `git` on PATH.
 */
export function commitPerFile(root: string, fallbackDay = '2024-01-01'): void {
  if (existsSync(join(root, '.git'))) return;
  const git = (args: string[], day?: string) =>
    execFileSync('git', ['-c', 'user.name=Ana Lima', '-c', 'user.email=ana@example.com', ...args], {
      cwd: root,
      stdio: 'pipe',
      env: {
        ...process.env,
        ...(day ? { GIT_AUTHOR_DATE: `${day}T18:00:00Z`, GIT_COMMITTER_DATE: `${day}T18:00:00Z` } : {}),
      },
    });
  git(['init', '-q', '-b', 'main']);
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.md')) files.push(p);
    }
  };
  walk('');
  for (const f of files.sort()) {
    const day = /(\d{4}-\d{2}-\d{2})\.md$/u.exec(f)?.[1] ?? fallbackDay;
    git(['add', '--', f]);
    git(['commit', '-q', '--no-verify', '-m', `memory: ${f}`], day);
  }
}

/**
 * Answer every question of every workspace in every variant, in this one process.
 * @param ask answers one question with the opened memory (e.g. `recall(mem.context, ...)` or MCP `memory_recall`).
 * @param onAnswer receives each answer (scoring, run files).
 * @throws Error when a vector or hybrid variant finds no embedder (run `npm run setup`).
 */
export async function answerWorkspaces<Q>(options: {
  /** The converted folder: one sub-folder per workspace. */
  readonly root: string;
  readonly byWorkspace: ReadonlyMap<string, readonly Q[]>;
  readonly variants: readonly Variant[];
  /** Folder for derived state (one sub-folder per workspace); kept between runs when the caller keeps it. */
  readonly storageDir: string;
  readonly modelDir?: string;
  readonly config?: Record<string, unknown>;
  /** The clock of a workspace's Memory (e.g. the day after its last note); default the system clock. */
  readonly nowOf?: (root: string) => string | undefined;
  /** Keep each workspace in git ({@link commitPerFile}): results carry provenance, the block its labels. */
  readonly git?: boolean;
  readonly ask: (mem: Memory, q: Q, v: Variant, ctx: { root: string; now?: string }) => Promise<RecallResponse>;
  readonly onAnswer: (a: Answered<Q>) => void;
}): Promise<RunStats> {
  const lat: number[] = [];
  let indexMs = 0;
  let embedded = 0;
  let degraded = 0;
  let maxSpan = 0;
  let spanSum = 0;
  let results = 0;
  for (const [ws, qs] of [...options.byWorkspace.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const root = join(options.root, ws);
    const storageDir = join(options.storageDir, ws);
    mkdirSync(storageDir, { recursive: true });
    const now = options.nowOf?.(root);
    if (options.git) commitPerFile(root, now);
    for (const variant of options.variants) {
      const config = { ...(options.config ?? {}), ...(variant.config ?? {}) };
      if (Object.keys(config).length)
        writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, ...config }));
      else rmSync(join(root, 'gitmem.config.json'), { force: true });
      const mem: Memory = await createMemory({
        fs: createNodeFs(root),
        openStorage: () => createIndexStorage(storageDir),
        freshness: 'manual',
        ...(options.git ? { gitdir: join(root, '.git'), workTree: root } : {}),
        ...(now ? { clock: { now: () => new Date(`${now}T12:00:00Z`) } } : {}),
        ...(options.modelDir ? { defaultModelDir: options.modelDir } : {}),
      });
      const ti = performance.now();
      const rep = await mem.index();
      indexMs += performance.now() - ti;
      if (variant.mode !== 'keyword' && rep.vectors.unavailable)
        throw new Error(`semantic recall unavailable: ${rep.vectors.unavailable} (run npm run setup)`);
      embedded += rep.vectors.embedded;
      for (const q of qs) {
        const ts = performance.now();
        const response = await options.ask(mem, q, variant, { root, ...(now ? { now } : {}) });
        const ms = performance.now() - ts;
        lat.push(ms);
        if (response.degraded) degraded++;
        for (const r of response.results) {
          const span = r.endLine - r.startLine + 1;
          maxSpan = Math.max(maxSpan, span);
          spanSum += span;
          results++;
        }
        options.onAnswer({ variant, workspace: ws, query: q, response, ms });
      }
      await mem.dispose?.();
    }
  }
  lat.sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? 0;
  return {
    indexMs: Math.round(indexMs),
    embedded,
    degraded,
    maxSpan,
    meanSpan: Number((spanSum / Math.max(1, results)).toFixed(2)),
    p50Ms: Number(pct(0.5).toFixed(2)),
    p95Ms: Number(pct(0.95).toFixed(2)),
  };
}
