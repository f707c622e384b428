// Git-native memory operations for a Memory: checkpoint, log, memory diff and recall as of a
// commit. Bridges the git layer (which never parses) and the parse/index layers (which never touch
// git): kinds come from the layout, ids and fields from parse, and recall as of a commit builds a
// throwaway keyword index from git objects — no writes to the work tree or the live index.
// deps: core, git, parse (through load.ts), indexes (through index-manager.ts / recall.ts).
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bodyOf, type MemoryDoc } from '../../core/document.js';
import { CONFIG_FILE, scaffoldConfigText } from '../../core/config.js';
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { classify } from '../../core/layout.js';
import { toRelPath, type RelPath } from '../../core/paths.js';
import { LineIndex } from '../../core/position.js';
import { ATTRIBUTES_FILE, attributeRules, hasAttributeBlock, withoutAttributeBlock } from '../../git/attributes.js';
import { checkpoint as gitCheckpoint, type CheckpointResult } from '../../git/checkpoint.js';
import { memoryDiff, type DiffDoc, type MemoryDiff } from '../../git/diff.js';
import { memoryLog, readTreeAt, type LogEntry } from '../../git/history.js';
import type { GitIdentity } from '../../git/identity.js';
import { chunkLineage, type Lineage } from '../../git/lineage.js';
import { git, resolveRevision, toRepoPath } from '../../git/repo.js';
import { memoryStatus, type ChangeSet } from '../../git/status.js';
import type { IndexManifest } from '../../indexes/manifest.js';
import { buildLexical, chunkRecords, INDEX_FORMAT_VERSION, type IndexSnapshot } from '../../engine/index-manager.js';
import { parseFiles, type RawFile } from '../../engine/load.js';
import type { Memory } from '../memory.js';
import { gitContext, type GitContext, type GitLocation } from '../../engine/git-context.js';
import { recallKeyword } from '../recall/recall.js';
import type { RecallOptions, RecallResponse } from '../recall/types.js';

export type { CheckpointResult, CommittedCheckpoint } from '../../git/checkpoint.js';
export type { MemoryDiff, MemoryDiffChange } from '../../git/diff.js';
export type { LogEntry } from '../../git/history.js';
export type { SecretFinding } from '../../core/secrets.js';
export { folderReach, gitContext, type GitContext, type GitLocation } from '../../engine/git-context.js';

/**
 * Parse one file's text the way the workspace loader does (ACE uses it for follow-up front-matter edits).
 * @returns undefined when the path is not memory or not a valid workspace path.
 */
export function parseMemoryText(
  memory: Pick<Memory, 'loaded' | 'config'>,
  path: string,
  text: string,
): MemoryDoc | undefined {
  const kind = classify(path, memory.loaded.layout);
  if (!kind) return undefined;
  let rel: RelPath;
  try {
    rel = toRelPath(path);
  } catch {
    return undefined;
  }
  const ws = parseFiles([{ path: rel, kind, text, hash: contentHash(text) }], memory.config);
  return ws.tryGet(rel);
}

/** `## Section` → its text, for CURRENT_STATE (docs/DESIGN.md §5). */
function sectionsOf(d: MemoryDoc): Record<string, string> {
  const li = new LineIndex(d.text);
  const out: Record<string, string> = {};
  const hs = d.headings.filter((h) => h.depth <= 2);
  hs.forEach((h, i) => {
    if (h.depth !== 2) return;
    const start = li.offsetAt({ line: h.range.start.line + 1, character: 0 });
    const next = hs[i + 1];
    const end = next ? li.offsetAt({ line: next.range.start.line, character: 0 }) : d.text.length;
    out[h.text] = d.text.slice(start, Math.max(start, end)).replace(/\r\n/g, '\n');
  });
  // The `> Last updated:` line is a field too.
  const m = /^>\s*Last updated:\s*(.*)$/im.exec(d.text);
  if (m) out['Last updated'] = m[1]!.trim();
  return out;
}

function diffDoc(memory: Pick<Memory, 'loaded' | 'config'>, path: string, text: string): DiffDoc | undefined {
  const d = parseMemoryText(memory, path, text);
  if (!d) return undefined;
  const typed = d.kind === 'entry' || d.kind === 'playbook';
  return {
    kind: d.kind,
    ...(typed && d.meta.id !== undefined ? { id: d.meta.id } : {}),
    ...(d.frontMatter?.data ? { data: d.frontMatter.data } : {}),
    body: bodyOf(d),
    ...(d.kind === 'current_state' ? { sections: sectionsOf(d) } : {}),
  };
}

export interface CheckpointRequest {
  /** Commit only these workspace-relative memory paths (what the caller wrote); default: every change. */
  readonly paths?: readonly string[];
  readonly message?: string;
  readonly reason?: string;
  readonly force?: boolean;
  readonly author?: Partial<GitIdentity>;
  /** Pin the commit time (tests). */
  readonly timestamp?: { readonly seconds: number; readonly timezoneOffset: number };
}

/**
 * Commit the workspace's memory changes (and nothing else). Trailers carry each file's kind and id.
 * @returns `{kind:'nothing-to-commit'}` when memory matches HEAD.
 * @throws MemoryError `git.not-a-repository`, `git.merge-in-progress`, `git.busy`, `git.secrets-found`.
 */
export async function checkpointMemory(
  memory: Memory,
  where: GitLocation,
  request: CheckpointRequest = {},
): Promise<CheckpointResult> {
  const { repo, scope: memoryScope } = gitContext(memory, where);
  const wanted = request.paths ? new Set(request.paths) : undefined;
  // gitmem's own files travel with the memory (so a clone that pulls gets them), but only as gitmem
  // wrote them: `.gitattributes` differing from HEAD by gitmem's block alone, and the config init
  // wrote when HEAD has none. Any other edit of those files stays the user's to commit.
  const own = wanted ? [] : await ownSetupChanges(memory, repo, memoryScope);
  const all =
    own.length > 0 ? { ...memoryScope, accept: (p: string) => own.includes(p) || memoryScope.accept(p) } : memoryScope;
  const scope = wanted
    ? {
        prefix: all.prefix,
        accept: (p: string) => wanted.has(p),
        descend: (d: string) => [...wanted].some((p) => p.startsWith(`${d}/`)),
      }
    : all;
  return gitCheckpoint(repo, {
    scope,
    ...(request.message !== undefined ? { message: request.message } : {}),
    ...(request.reason !== undefined ? { reason: request.reason } : {}),
    ...(request.force ? { force: true } : {}),
    ...(request.author ? { author: request.author } : {}),
    ...(request.timestamp ? { timestamp: request.timestamp } : {}),
    describe: describeCommitted(memory),
  });
}

/** The checkpoint's `describe`: a committed file's memory kind, and the id of an entry or playbook entry. */
export function describeCommitted(
  memory: Pick<Memory, 'loaded' | 'config'>,
): (file: { path: string; text: string }) => { kind: string; id?: string } | undefined {
  return ({ path, text }) => {
    const kind = classify(path, memory.loaded.layout);
    if (kind !== 'entry' && kind !== 'playbook') return kind ? { kind } : undefined;
    const d = parseMemoryText(memory, path, text);
    return { kind, ...(d?.meta.id !== undefined ? { id: d.meta.id } : {}) };
  };
}

/**
 * @returns the set-up files gitmem wrote and a checkpoint may share: `.gitattributes` when it holds
 * gitmem's current merge block for this layout and, with that block taken out of both, equals HEAD's
 * version (or HEAD has none); gitmem.config.json when it reads exactly what `init` writes for this
 * layout and HEAD has none; the empty `.gitkeep` files of entries/ and playbook/ when HEAD has none.
 * Only regular files count.
 */
async function ownSetupChanges(
  memory: Pick<Memory, 'root' | 'loaded'>,
  repo: GitContext['repo'],
  scope: GitContext['scope'],
): Promise<string[]> {
  const own: string[] = [];
  const attrs = await readWorkFile(memory.root, ATTRIBUTES_FILE);
  if (attrs !== undefined && hasAttributeBlock(attrs, attributeRules(memory.loaded.layout))) {
    const head = (await readAtHead(repo, scope, ATTRIBUTES_FILE)) ?? '';
    if (head !== attrs && withoutAttributeBlock(attrs).trimEnd() === withoutAttributeBlock(head).trimEnd()) {
      own.push(ATTRIBUTES_FILE);
    }
  }
  const config = await readWorkFile(memory.root, CONFIG_FILE);
  if (
    config === scaffoldConfigText(memory.loaded.layout.name) &&
    (await readAtHead(repo, scope, CONFIG_FILE)) === undefined
  ) {
    own.push(CONFIG_FILE);
  }
  // The empty `.gitkeep` init puts in entries/ and playbook/, so every clone has the folders the
  // layout names; one holding text is the user's (docs/bad-inputs.md U30).
  const dir = memory.loaded.layout.memoryDir ? `${memory.loaded.layout.memoryDir}/` : '';
  for (const keep of [`${dir}entries/.gitkeep`, `${dir}playbook/.gitkeep`]) {
    if ((await readWorkFile(memory.root, keep)) === '' && (await readAtHead(repo, scope, keep)) === undefined)
      own.push(keep);
  }
  return own;
}

/** @returns a regular file's text in the workspace, undefined when missing or not a regular file. */
async function readWorkFile(root: string, file: string): Promise<string | undefined> {
  try {
    const path = join(root, file);
    if (!(await lstat(path)).isFile()) return undefined;
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** @returns a workspace file's text at HEAD, undefined with no commit yet or no such file. */
async function readAtHead(
  repo: GitContext['repo'],
  scope: GitContext['scope'],
  file: string,
): Promise<string | undefined> {
  try {
    const oid = await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref: 'HEAD' });
    const { blob } = await git.readBlob({
      fs: repo.fs,
      gitdir: repo.gitdir,
      oid,
      filepath: toRepoPath(scope, file),
      cache: repo.cache,
    });
    return new TextDecoder().decode(blob);
  } catch {
    return undefined;
  }
}

/**
 * Refuse to go on when any of `paths` (workspace-relative) already differs from HEAD: a command
 * that commits what it writes must not sweep in edits nobody reviewed. Call before writing.
 * Outside git, or with committing turned off, the caller skips this.
 * @throws MemoryError `git.uncommitted-edits` naming the files.
 */
export async function assertNoUncommittedEdits(
  memory: Memory,
  where: GitLocation,
  paths: readonly string[],
  what: string,
): Promise<void> {
  const changes = await memoryChanges(memory, where);
  const dirty = new Set([...changes.added, ...changes.modified, ...changes.deleted]);
  const hit = paths.filter((p) => dirty.has(p));
  if (hit.length === 0) return;
  throw new MemoryError(
    'git.uncommitted-edits',
    `${what} would commit ${hit.join(', ')}, which already hold${hit.length === 1 ? 's' : ''} uncommitted edits; nothing was written`,
    {
      data: { paths: hit },
      hint: 'review and commit those edits first (`gitmem diff`, `gitmem checkpoint`), or discard them; or run again with --no-commit',
    },
  );
}

/** Memory paths that differ from HEAD (what a checkpoint would commit). */
export async function memoryChanges(memory: Memory, where: GitLocation): Promise<ChangeSet> {
  const { repo, scope } = gitContext(memory, where);
  const s = await memoryStatus(repo, scope);
  return { added: s.added, modified: s.modified, deleted: s.deleted };
}

/**
 * History of the memory files, or of one file/folder. `path` may also be an entry or playbook id.
 * @throws MemoryError `git.not-a-repository`, `git.bad-revision`, `path.outside-root`.
 */
export async function memoryHistory(
  memory: Memory,
  where: GitLocation,
  options: { path?: string; limit?: number; rev?: string } = {},
): Promise<LogEntry[]> {
  const { repo, scope } = gitContext(memory, where);
  let path: string | undefined;
  if (options.path) {
    const raw = options.path.trim();
    if (!/[/\\]/.test(raw) && !/\.md$/i.test(raw)) {
      const docs = (await memory.workspace()).byId(raw);
      path = docs[0]?.path ?? toRelPath(raw);
    } else path = toRelPath(raw);
  }
  return memoryLog(repo, scope, {
    ...(path ? { path } : {}),
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    ...(options.rev !== undefined ? { rev: options.rev } : {}),
  });
}

/** A memory diff with the revisions it compared. `to` is null for the work tree. */
export interface MemoryDiffReport extends MemoryDiff {
  readonly from: { readonly rev: string; readonly oid: string };
  readonly to: { readonly rev: string; readonly oid: string } | null;
}

/**
 * Memory diff between `from` and `to` (or the work tree when `to` is omitted), in memory terms.
 * @throws MemoryError `git.not-a-repository`, `git.bad-revision`.
 */
export async function diffMemory(
  memory: Memory,
  where: GitLocation,
  from: string,
  to?: string,
): Promise<MemoryDiffReport> {
  const { repo, scope } = gitContext(memory, where);
  const a = await readTreeAt(repo, scope, from);
  let after: ReadonlyMap<string, string>;
  let toInfo: MemoryDiffReport['to'] = null;
  if (to !== undefined) {
    const b = await readTreeAt(repo, scope, to);
    after = b.files;
    toInfo = { rev: to, oid: b.oid };
  } else {
    const ws = await memory.workspace();
    after = new Map(ws.docs().map((d) => [d.path as string, (d.hasBom ? '\uFEFF' : '') + d.text]));
  }
  const diff = memoryDiff(a.files, after, (path, text) => diffDoc(memory, path, text));
  return { from: { rev: from, oid: a.oid }, to: toInfo, ...diff };
}

/** Recall response plus the commit it searched. */
export interface RecallAsOfResponse extends RecallResponse {
  readonly asOf: { readonly rev: string; readonly oid: string };
}

const asOfCache = new Map<string, IndexSnapshot>();

/**
 * Keyword recall over the memory as it was at `rev`: files read from git objects, parsed, chunked
 * and indexed in memory (cached per commit and layout in this process). Neither the work tree nor
 * the persisted index is read or written.
 * @throws MemoryError `git.not-a-repository`, `git.bad-revision`.
 */
export async function recallAsOf(
  memory: Memory,
  where: GitLocation,
  rev: string,
  query: string,
  options: RecallOptions = {},
): Promise<RecallAsOfResponse> {
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
export async function branchRevision(memory: Memory, where: GitLocation, name: string): Promise<string> {
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

/**
 * Add `lineage: {commit, author, date}` to recall results: the commit that last changed each
 * result's lines (its current text, read from the work tree). Results whose lines are not committed
 * yet get no lineage. Outside a git repository the results are returned unchanged.
 */
export async function withLineage<T extends { path: string; startLine: number; endLine: number; lineage?: Lineage }>(
  memory: Memory,
  where: GitLocation,
  results: T[],
): Promise<T[]> {
  if (!where.gitdir || !where.workTree) return results;
  let ctx: ReturnType<typeof gitContext>;
  try {
    ctx = gitContext(memory, where);
  } catch {
    return results; // e.g. a linked worktree: recall still answers, without lineage
  }
  for (const r of results) {
    try {
      const lines = await memory.get(`${r.path}:${r.startLine}-${r.endLine}`);
      const lineage = await chunkLineage(ctx.repo, toRepoPath(ctx.scope, r.path), lines.text);
      if (lineage) r.lineage = lineage;
    } catch {
      /* a file removed since the recall, or unreadable history: no lineage for this result */
    }
  }
  return results;
}
