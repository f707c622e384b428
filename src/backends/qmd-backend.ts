// The `qmd` backend: memory files as the `file` backend keeps them, search delegated to an installed
// `qmd` CLI (`qmd search <query> --json`) with a timeout; results mapped to memory files of the
// workspace with bounded snippets. Missing, failing, slow or garbled qmd → the local search.
// deps: core, backends (file-backend, local-search, project-files, qmd-cli).
import { posix, relative, resolve, isAbsolute } from 'node:path';
import type { LayoutName } from '../core/layout.js';
import { classify } from '../core/layout.js';
import { Debouncer } from '../core/debounce.js';
import { tryRelPath, type RelPath } from '../core/paths.js';
import { FileMemoryBackend } from './file-backend.js';
import { boundSnippet, clampSearchLimit, queryTerms, searchProjectMemory } from './local-search.js';
import { openProjectWorkspace, type ProjectWorkspace } from './project-files.js';
import { findExecutable, runCommand, type QmdFailure } from './qmd-cli.js';
import type { MemorySearchOptions, MemorySearchResult } from './types.js';

/** Why a qmd search fell back to the local search. */
export type QmdFallbackReason = QmdFailure | 'garbage' | 'empty';

/** Options of {@link QmdMemoryBackend}. */
export interface QmdMemoryBackendOptions {
  readonly layout?: LayoutName;
  /** Executable name or absolute path (default `qmd`, looked up on PATH at each search). */
  readonly command?: string;
  /** Kill qmd after this many milliseconds (default 4000). */
  readonly timeoutMs?: number;
  /** qmd collection to search (`-c NAME`); default: all collections, results outside the workspace dropped. */
  readonly collection?: string;
  /** Environment for the PATH lookup and the child (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Told whenever a search falls back to the local search, and why. */
  readonly onFallback?: (reason: QmdFallbackReason, detail: string) => void;
  /** After a write, run `qmd update` once writes have been quiet this long (ms, default 500). */
  readonly refreshDelayMs?: number;
  /** Told when a scheduled refresh has run (ok, or why it failed; a failure never fails the write). */
  readonly onRefresh?: (result: { readonly ok: boolean; readonly detail: string }) => void;
}

/**
 * `file` storage plus qmd search. Keep the qmd collection pointed at the memory folder yourself
 * (`qmd collection add .fusion/memory --name NAME`, `qmd update`): this backend only queries.
 * Only results that resolve to existing memory files of the workspace are returned.
 */
export class QmdMemoryBackend extends FileMemoryBackend {
  override readonly type = 'qmd';
  override readonly name = 'QMD (qmd search, local fallback)';
  readonly #o: QmdMemoryBackendOptions;
  /** The one pending `qmd update` (core/debounce.ts), run for the workspace written last. */
  readonly #refresh: Debouncer;
  #refreshRoot = '';
  #pending: Promise<void> = Promise.resolve();

  constructor(options: QmdMemoryBackendOptions = {}) {
    super(options.layout ? { layout: options.layout } : {});
    this.#o = options;
    this.#refresh = new Debouncer(() => this.#runRefresh(this.#refreshRoot), {
      delayMs: options.refreshDelayMs ?? 500,
      unref: true,
    });
  }

  /** Write as the `file` backend does, then schedule a `qmd update` so qmd's index sees the change. */
  override async write(rootDir: string, content: string): ReturnType<FileMemoryBackend['write']> {
    const res = await super.write(rootDir, content);
    this.#scheduleRefresh(rootDir);
    return res;
  }

  /** Resolves once no refresh is scheduled or running (for hosts shutting down, and tests). */
  async settled(): Promise<void> {
    await this.#refresh.idle();
    await this.#pending;
  }

  #scheduleRefresh(rootDir: string): void {
    this.#refreshRoot = rootDir;
    this.#refresh.schedule();
  }

  #runRefresh(rootDir: string): void {
    this.#pending = this.#pending.then(async () => {
      const env = this.#o.env ?? process.env;
      const exe = findExecutable(this.#o.command ?? 'qmd', env);
      if (!exe) return this.#o.onRefresh?.({ ok: false, detail: `${this.#o.command ?? 'qmd'} is not on PATH` });
      const run = await runCommand(exe, ['update'], {
        cwd: rootDir,
        timeoutMs: Math.max(this.#o.timeoutMs ?? 4000, 30_000),
        env,
      });
      this.#o.onRefresh?.(
        run.ok ? { ok: true, detail: 'qmd update' } : { ok: false, detail: `${run.reason}: ${run.detail}` },
      );
    });
  }

  /** @returns qmd's results when it answers usefully, else the local search's. Never throws on qmd trouble. */
  override async search(rootDir: string, options: MemorySearchOptions): Promise<MemorySearchResult[]> {
    if (queryTerms(options?.query).length === 0) return [];
    const limit = clampSearchLimit(options.limit);
    const ws = await openProjectWorkspace(rootDir, this.fileOptions());
    const fallback = async (reason: QmdFallbackReason, detail: string) => {
      this.#o.onFallback?.(reason, detail);
      return searchProjectMemory(rootDir, options, this.fileOptions());
    };
    const env = this.#o.env ?? process.env;
    const exe = findExecutable(this.#o.command ?? 'qmd', env);
    if (!exe) return fallback('missing', `${this.#o.command ?? 'qmd'} is not on PATH`);
    // A leading dash would read as an option: qmd gets the words, never flags from the query.
    const query = options.query.trim().replace(/^-+/, '');
    const args = [
      'search',
      '--json',
      '-n',
      String(limit),
      ...(this.#o.collection ? ['-c', this.#o.collection] : []),
      query,
    ];
    const run = await runCommand(exe, args, { cwd: ws.root, timeoutMs: this.#o.timeoutMs ?? 4000, env });
    if (!run.ok) return fallback(run.reason, run.detail);
    let parsed: unknown;
    try {
      parsed = JSON.parse(run.stdout);
    } catch {
      return fallback('garbage', `output is not JSON: ${JSON.stringify(run.stdout.slice(0, 80))}`);
    }
    const raw = Array.isArray(parsed)
      ? parsed
      : Array.isArray((parsed as { results?: unknown })?.results)
        ? (parsed as { results: unknown[] }).results
        : undefined;
    if (!raw) return fallback('garbage', 'output is neither an array nor { results: [...] }');
    if (raw.length === 0) return fallback('empty', 'qmd found nothing');
    const results = await mapQmdResults(raw, ws, this.type);
    if (results.length === 0)
      return fallback('garbage', `none of ${raw.length} qmd results is a memory file of this workspace`);
    return results.sort((a, b) => b.score - a.score).slice(0, limit);
  }
}

/** Map qmd JSON rows to contract results; rows without a usable memory path or snippet are dropped. */
export async function mapQmdResults(
  rows: readonly unknown[],
  ws: ProjectWorkspace,
  backend: string,
): Promise<MemorySearchResult[]> {
  const out: MemorySearchResult[] = [];
  for (const row of rows.slice(0, 200)) {
    if (!row || typeof row !== 'object') continue;
    const r = row as Record<string, unknown>;
    const rawPath = [r.file, r.path, r.filepath, r.displayPath].find((v) => typeof v === 'string') as
      string | undefined;
    if (!rawPath) continue;
    const path = await mapQmdPath(rawPath, ws);
    if (!path) continue;
    let text = [r.snippet, r.text, r.content, r.body].find((v) => typeof v === 'string') as string | undefined;
    if (!text || !text.trim()) continue;
    // qmd snippets open with a diff-style header `@@ -LINE,COUNT @@ …` giving the position.
    let start = positiveInt(r.lineStart) ?? positiveInt(r.startLine) ?? positiveInt(r.line);
    let count: number | undefined;
    const m = /^@@ -(\d+)(?:,(\d+))? @@[^\n]*(?:\n|$)/.exec(text);
    if (m) {
      start ??= positiveInt(Number(m[1]));
      count = positiveInt(Number(m[2]));
      text = text.slice(m[0].length);
    }
    if (!text.trim()) continue;
    const lineStart = start ?? 1;
    const end = positiveInt(r.lineEnd) ?? positiveInt(r.endLine);
    const lineEnd = Math.max(lineStart, end ?? lineStart + (count ?? text.replace(/\n+$/, '').split('\n').length) - 1);
    const score = typeof r.score === 'number' && Number.isFinite(r.score) ? r.score : 0;
    out.push({ path, lineStart, lineEnd, snippet: boundSnippet(text), score, backend });
  }
  return out;
}

/**
 * Resolve a qmd path (`qmd://collection/rel.md`, `collection/rel.md`, an absolute path) to an existing
 * memory file of the workspace. @returns undefined when it is none (outside the root, not memory, gone).
 */
async function mapQmdPath(raw: string, ws: ProjectWorkspace): Promise<RelPath | undefined> {
  let s = raw.trim().replace(/\\/g, '/').split('#')[0]!.split('?')[0]!;
  const candidates: string[] = [];
  const dropFirst = (p: string) => (p.includes('/') ? p.slice(p.indexOf('/') + 1) : undefined);
  if (/^qmd:\/\//i.test(s)) {
    s = s.slice(6);
    const rest = dropFirst(s);
    if (rest) candidates.push(rest);
    candidates.push(s);
  } else if (isAbsolute(s)) {
    const rel = relative(ws.root, resolve(s)).replace(/\\/g, '/');
    if (rel && !rel.startsWith('../') && rel !== '..' && !isAbsolute(rel)) candidates.push(rel);
  } else {
    candidates.push(s);
    const rest = dropFirst(s);
    if (rest) candidates.push(rest);
  }
  const dir = ws.layout.memoryDir;
  const all = candidates.flatMap((c) => (dir && !c.startsWith(`${dir}/`) ? [c, posix.join(dir, c)] : [c]));
  for (const c of all) {
    const rel = tryRelPath(c);
    if (!rel || !classify(rel, ws.layout)) continue;
    const st = await ws.fs.stat(rel).catch(() => undefined);
    if (st && !st.isDirectory) return rel;
  }
  return undefined;
}

function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : undefined;
}
