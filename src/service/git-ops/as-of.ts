// Recall as of a commit (`--as-of`, `--branch`): the memory read from git objects, parsed, chunked
// and keyword-indexed in memory — no writes to the work tree or the live index.
// deps: core, git, indexes (types), engine (index-manager, load, git-context), service (recall).
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { classify } from '../../core/layout.js';
import { toRelPath } from '../../core/paths.js';
import { readTreeAt } from '../../git/history.js';
import { git, resolveRevision } from '../../git/repo.js';
import type { IndexManifest } from '../../indexes/manifest/manifest.js';
import {
  buildLexical,
  chunkRecords,
  INDEX_FORMAT_VERSION,
  type IndexSnapshot,
} from '../../engine/chunks/index-manager.js';
import type { RawFile } from '../../engine/load/load.js';
import { parseFiles } from '../../engine/load/parse-cache.js';
import { gitContext, type GitLocation } from '../../engine/load/git-context.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { recallKeyword } from '../recall/recall.js';
import type { RecallOptions, RecallResponse } from '../recall/types.js';

export type { GitLocation } from '../../engine/load/git-context.js';

/** Recall response plus the commit it searched. */
export interface RecallAsOfResponse extends RecallResponse {
  readonly asOf: { readonly rev: string; readonly oid: string };
}

const asOfCache = new Map<string, IndexSnapshot>();

/** `recallAsOf`'s input: the repository, the revision, the query and its recall options. */
export interface RecallAsOfInput {
  readonly git: GitLocation;
  /** A checked revision (`requireRevision`). */
  readonly rev: string;
  readonly query: string;
  readonly options?: RecallOptions;
}

/**
 * Keyword recall over the memory as it was at `rev`: files read from git objects, parsed, chunked
 * and indexed in memory (cached per commit and layout in this process). Neither the work tree nor
 * the persisted index is read or written.
 * @throws MemoryError `git.not-a-repository`, `git.bad-revision`.
 */
export async function recallAsOf(ctx: MemoryContext, input: RecallAsOfInput): Promise<RecallAsOfResponse> {
  const { git: where, rev, query, options = {} } = input;
  const memory = ctx;
  const t0 = performance.now();
  const { repo, scope } = gitContext(memory, where);
  const oid = await resolveRevision(repo, rev);
  const key = `${repo.gitdir}\0${scope.prefix}\0${oid}\0${memory.loaded.layout.name}\0${JSON.stringify(memory.config.chunking)}`;
  let snap = asOfCache.get(key);
  if (!snap) {
    const tree = await readTreeAt(repo, scope, oid);
    const raw: RawFile[] = [];
    for (const [path, text] of tree.files) {
      const kind = classify(path, memory.loaded.layout);
      if (!kind || text.length > memory.config.limits.maxFileBytes) continue;
      raw.push({ path: toRelPath(path), kind, text, hash: contentHash(text) });
    }
    const ws = parseFiles(raw, memory.config);
    const records = chunkRecords(ws);
    const titles = new Map<string, string>();
    for (const d of ws.docs()) if (d.meta.title) titles.set(d.path, d.meta.title);
    const manifest: IndexManifest = {
      formatVersion: INDEX_FORMAT_VERSION,
      lunrVersion: '',
      createdAt: new Date().toISOString(),
      fingerprint: `as-of:${oid}`,
      docs: Object.fromEntries(
        raw.map((f) => [f.path, { contentHash: f.hash, chunkCount: records.filter((r) => r.path === f.path).length }]),
      ),
      artifacts: {},
      chunkCount: records.length,
    };
    snap = {
      lexical: buildLexical(records, titles),
      chunks: new Map(records.map((r) => [r.id, r])),
      manifest,
      source: 'built',
      reason: `as of ${oid}`,
      ms: performance.now() - t0,
    };
    if (asOfCache.size >= 8) asOfCache.delete(asOfCache.keys().next().value!);
    asOfCache.set(key, snap);
  }
  const res = recallKeyword(snap, query, {
    snippetChars: memory.config.recall.snippetChars,
    ...options,
    limit: options.limit ?? memory.config.recall.limit,
  });
  res.tookMs = Number((performance.now() - t0).toFixed(2));
  // Never change the query silently: an old tree has no embeddings here, so say so.
  const asked = options.mode ?? memory.config.recall.mode;
  if (asked !== 'keyword' && memory.config.model.enabled) {
    res.degraded = `--as-of answers from keywords only (${asked} was asked): the memory at ${oid.slice(0, 7)} is not embedded`;
  }
  return { ...res, asOf: { rev, oid } };
}

/**
 * The full ref of branch `name` (local `refs/heads/…` first, then remote-tracking `refs/remotes/…`),
 * for `recall --branch`.
 * @throws MemoryError `usage` for an empty name, `git.bad-revision` when no such branch exists.
 */
export async function branchRevision(
  ctx: MemoryContext,
  input: { readonly git: GitLocation; readonly name: string },
): Promise<string> {
  const { git: where, name } = input;
  const memory = ctx;
  const b = requireRevision(name);
  const { repo } = gitContext(memory, where);
  for (const ref of [`refs/heads/${b}`, `refs/remotes/${b}`]) {
    try {
      await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref });
      return ref;
    } catch {
      /* try the next namespace */
    }
  }
  throw new MemoryError('git.bad-revision', `no branch named "${b}"`, {
    data: { branch: b },
    hint: 'list branches with `git branch -a`; remote ones read as origin/<name>',
  });
}

/** @throws MemoryError `usage` for an empty revision argument. */
export function requireRevision(rev: string | undefined): string {
  if (!rev || !rev.trim())
    throw new MemoryError('usage', 'a revision is required (a commit id, branch, tag or HEAD~N)');
  return rev.trim();
}
