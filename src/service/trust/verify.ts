// `gitmem verify`: every memory that cites code (or those under the given paths), checked against
// the code (service/trust/code-check.ts), and the stale ones listed. The one use case behind the CLI
// command; the editor and recall open a CodeChecker the same way (openCodeChecker).
// deps: core, engine (git-context), service (shared context), service/trust.
import type { MemoryDoc } from '../../core/document.js';
import { MemoryError } from '../../core/errors.js';
import { gitContext } from '../../engine/load/git-context.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { CodeChecker, isStale, verifiedOf, type CodeStatus } from './code-check.js';

/** One stale memory: where it is and what changed in the code it cites. */
export interface StaleMemory {
  readonly path: string;
  /** Lines of the memory (1-based, inclusive): the entry's body, or the chunk of a note. */
  readonly startLine: number;
  readonly endLine: number;
  readonly id?: string;
  /** The cited files' states; only stale ones. */
  readonly code: readonly CodeStatus[];
}

/** What `gitmem verify` answers. */
export interface VerifyReport {
  /** Memories (entries, chunks of other files) that cite code. */
  readonly checked: number;
  readonly stale: readonly StaleMemory[];
  readonly tookMs: number;
}

/**
 * A code checker for `ctx`'s repository.
 * @throws MemoryError `git.not-a-repository` outside a git work tree.
 */
export function openCodeChecker(ctx: Pick<MemoryContext, 'fs' | 'loaded' | 'storage' | 'git'>): CodeChecker {
  const g = gitContext({ root: ctx.fs.root, loaded: ctx.loaded }, ctx.git ?? {});
  return new CodeChecker(g.repo, g.scope, ctx.storage);
}

/** @returns true when workspace path `p` is `want` or lies under the folder `want`. */
function under(p: string, want: string): boolean {
  const w = want.replace(/^\.\//, '').replace(/\/+$/, '');
  return w === '' || w === '.' || p === w || p.startsWith(`${w}/`);
}

/**
 * The code check of one memory file: an entry is one memory (its chunks' citations together, with
 * its front-matter `files:`), any other file one memory per chunk. `verified:` comes from `doc.text`.
 * @returns `checked`: memories that cite code; `stale`: those with a stale cited file, in chunk order.
 */
export async function checkDocument(
  checker: CodeChecker,
  doc: MemoryDoc,
): Promise<{ checked: number; stale: StaleMemory[] }> {
  const files = doc.meta.files.map((f) => f.path);
  const verified = verifiedOf(doc.text);
  const entry = doc.frontMatter !== undefined && doc.meta.id !== undefined;
  const found = new Map<string, CodeStatus>();
  const stale: StaleMemory[] = [];
  let checked = 0;
  let cites = false;
  let lines: { startLine: number; endLine: number } | undefined;
  for (const c of doc.chunks) {
    const piece = { path: doc.path, text: c.text, files, ...(verified ? { verified } : {}) };
    if (!CodeChecker.cites(piece)) continue;
    if (!entry) {
      const code = (await checker.check(piece)).filter(isStale);
      checked++;
      if (code.length) stale.push({ path: doc.path, startLine: c.startLine, endLine: c.endLine, code });
      continue;
    }
    cites = true;
    lines = { startLine: Math.min(lines?.startLine ?? c.startLine, c.startLine), endLine: c.endLine };
    for (const s of (await checker.check(piece)).filter(isStale))
      found.set(`${s.path}\0${s.status}\0${s.name ?? ''}`, s);
  }
  if (entry && cites) {
    checked++;
    if (found.size)
      stale.push({
        path: doc.path,
        ...lines!,
        ...(doc.meta.id ? { id: doc.meta.id } : {}),
        code: [...found.values()],
      });
  }
  return { checked, stale };
}

/**
 * Check every memory that cites code, or those under `paths` (workspace-relative files or folders).
 * @throws MemoryError `git.not-a-repository` outside git; `usage` when a path names no memory file.
 */
export async function verify(ctx: MemoryContext, paths: readonly string[] = []): Promise<VerifyReport> {
  const t0 = performance.now();
  const checker = openCodeChecker(ctx);
  const ws = await ctx.workspace();
  const docs = [...ws.docs()].filter((d) => paths.length === 0 || paths.some((p) => under(d.path, p)));
  for (const p of paths)
    if (!docs.some((d) => under(d.path, p)))
      throw new MemoryError('usage', `no memory file at ${p}`, {
        hint: 'give memory files or folders, e.g. gitmem verify memory/entries',
      });
  let checked = 0;
  const stale: StaleMemory[] = [];
  for (const doc of docs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const found = await checkDocument(checker, doc);
    checked += found.checked;
    stale.push(...found.stale);
  }
  await checker.flush();
  return { checked, stale, tookMs: Number((performance.now() - t0).toFixed(2)) };
}
