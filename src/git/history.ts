// History of the memory files: commits that changed memory (or one path), newest first, with the
// files each changed and the Memory-* trailers parsed; and the memory files' text at any commit,
// read from git objects without touching the work tree or the index.
// deps: core, isomorphic-git (through repo.ts).
import { parseMessage, type MemoryChangeTrailer } from './message.js';
import { git, guard, readHead, resolveRevision, toRepoPath, type GitRepo, type MemoryScope } from './repo.js';
import { listTree, subtreeOid } from './status.js';
import { idKey } from '../core/workspace.js';

export interface CommitPerson {
  readonly name: string;
  readonly email: string;
  /** Seconds since the epoch. */
  readonly timestamp: number;
  /** isomorphic-git convention: minutes, JS `getTimezoneOffset` sign. */
  readonly timezoneOffset: number;
  /** ISO-8601 in the commit's own offset, e.g. `2026-11-29T12:00:00+01:00`. */
  readonly date: string;
}

/** A memory file a commit changed, compared with its first parent. */
export interface FileChange {
  readonly path: string;
  readonly change: 'added' | 'modified' | 'deleted';
}

export interface LogEntry {
  readonly oid: string;
  readonly parents: readonly string[];
  readonly summary: string;
  readonly body: string;
  readonly author: CommitPerson;
  readonly committer: CommitPerson;
  readonly files: readonly FileChange[];
  /** Memory-Op groups from the trailers (empty for commits gitmem did not write). */
  readonly memory: readonly MemoryChangeTrailer[];
  readonly reason?: string;
  /**
   * A shallow clone's boundary: the commit's parent is not in the clone, so what it changed is not
   * known (`files` is empty; R81). Absent otherwise.
   */
  readonly historyCut?: true;
}

export interface LogOptions {
  /** Start revision. Default HEAD. */
  readonly rev?: string;
  /** Only commits touching this workspace-relative file or folder. */
  readonly path?: string;
  /** Most entries returned. Default 50. */
  readonly limit?: number;
  /** Most commits inspected before giving up (bounds the cost on long histories). Default 5 000. */
  readonly maxScan?: number;
}

/** ISO date of a git timestamp in its own offset. */
function isoDate(timestamp: number, timezoneOffset: number): string {
  const offMin = -timezoneOffset;
  const local = new Date((timestamp + offMin * 60) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  if (offMin === 0) return `${local}Z`;
  const a = Math.abs(offMin);
  return `${local}${offMin < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

function person(p: { name: string; email: string; timestamp: number; timezoneOffset: number }): CommitPerson {
  return {
    name: p.name,
    email: p.email,
    timestamp: p.timestamp,
    timezoneOffset: p.timezoneOffset,
    date: isoDate(p.timestamp, p.timezoneOffset),
  };
}

/**
 * Commits that changed memory files (or `options.path`), newest first (by committer time).
 * @returns [] in a repository with no commits yet.
 * @throws MemoryError `git.bad-revision` for an unknown `rev`.
 */
export async function memoryLog(repo: GitRepo, scope: MemoryScope, options: LogOptions = {}): Promise<LogEntry[]> {
  let start: string;
  if (options.rev === undefined) {
    const head = await readHead(repo);
    if (head.kind === 'unborn') return [];
    start = head.oid;
  } else start = await resolveRevision(repo, options.rev);
  const limit = Math.max(1, options.limit ?? 50);
  const maxScan = options.maxScan ?? 5000;
  // Paths compare in NFC: a name committed decomposed (NFD, macOS) is found when typed composed, and
  // the other way round (R35).
  const only = options.path === undefined ? undefined : idKey(options.path.replace(/\/+$/, ''));
  const under = (p: string) => {
    const k = idKey(p);
    return k === only || k.startsWith(`${only}/`);
  };
  const filtered: MemoryScope = only
    ? {
        prefix: scope.prefix,
        accept: (p) => under(p) && scope.accept(p),
        descend: (d) => {
          const k = idKey(d);
          return (under(d) || only.startsWith(`${k}/`)) && (!scope.descend || scope.descend(d));
        },
      }
    : scope;

  const out: LogEntry[] = [];
  const seen = new Set<string>([start]);
  const queue: Array<{ oid: string; time: number }> = [{ oid: start, time: Number.MAX_SAFE_INTEGER }];
  let scanned = 0;
  while (queue.length && out.length < limit && scanned < maxScan) {
    queue.sort((a, b) => b.time - a.time);
    const { oid } = queue.shift()!;
    scanned++;
    const { commit } = await guard('git.log', () =>
      git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache }),
    );
    const firstParent = commit.parent[0];
    let parentTree: string | undefined;
    let cut = false;
    if (firstParent) {
      try {
        parentTree = (await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: firstParent, cache: repo.cache }))
          .commit.tree;
      } catch {
        cut = true; // shallow clone: the parent is not here, so what this commit changed is unknown (R81)
      }
    }
    const diff = await diffTrees(repo, parentTree, commit.tree, filtered);
    const files = cut ? [] : diff;
    if (diff.length) {
      const msg = parseMessage(commit.message);
      out.push({
        oid,
        parents: [...commit.parent],
        summary: msg.summary,
        body: msg.body,
        author: person(commit.author),
        committer: person(commit.committer),
        files,
        memory: only ? msg.changes.filter((c) => under(c.path) || c.path === '') : msg.changes,
        ...(msg.reason !== undefined ? { reason: msg.reason } : {}),
        ...(cut ? { historyCut: true as const } : {}),
      });
    }
    for (const p of commit.parent) {
      if (seen.has(p)) continue;
      seen.add(p);
      try {
        const c = await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: p, cache: repo.cache });
        queue.push({ oid: p, time: c.commit.committer.timestamp });
      } catch {
        /* missing parent (shallow clone): history ends here */
      }
    }
  }
  return out;
}

/** Memory files that differ between two trees (either may be absent), sorted by path. */
export async function diffTrees(
  repo: GitRepo,
  a: string | undefined,
  b: string | undefined,
  scope: MemoryScope,
): Promise<FileChange[]> {
  const ra = a && scope.prefix ? await subtreeOid(repo, a, scope.prefix) : a;
  const rb = b && scope.prefix ? await subtreeOid(repo, b, scope.prefix) : b;
  const out: FileChange[] = [];
  const read = async (oid: string | undefined) =>
    oid
      ? (await guard('git.diffTrees', () => git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache })))
          .tree
      : [];
  const visit = async (x: string | undefined, y: string | undefined, base: string): Promise<void> => {
    if (x === y) return;
    const [ex, ey] = await Promise.all([read(x), read(y)]);
    const mx = new Map(ex.map((e) => [e.path, e]));
    const my = new Map(ey.map((e) => [e.path, e]));
    for (const name of new Set([...mx.keys(), ...my.keys()])) {
      const p = base ? `${base}/${name}` : name;
      const u = mx.get(name);
      const v = my.get(name);
      const ut = u?.type === 'tree' ? u.oid : undefined;
      const vt = v?.type === 'tree' ? v.oid : undefined;
      if ((ut || vt) && (!scope.descend || scope.descend(p))) await visit(ut, vt, p);
      const ub = u?.type === 'blob' ? u : undefined;
      const vb = v?.type === 'blob' ? v : undefined;
      if (!ub && !vb) continue;
      if (!scope.accept(p)) continue;
      if (!ub) out.push({ path: p, change: 'added' });
      else if (!vb) out.push({ path: p, change: 'deleted' });
      else if (ub.oid !== vb.oid || ub.mode !== vb.mode) out.push({ path: p, change: 'modified' });
    }
  };
  await visit(ra, rb, '');
  return out.sort((p, q) => (p.path < q.path ? -1 : p.path > q.path ? 1 : 0));
}

/** The memory files at one commit. */
export interface TreeSnapshot {
  /** The commit the revision resolved to. */
  readonly oid: string;
  /** Workspace-relative path → text (UTF-8, invalid bytes replaced; files with NUL bytes left out). */
  readonly files: ReadonlyMap<string, string>;
}

/**
 * Read the memory files' text at `rev` from git objects. Touches neither the work tree nor the index.
 * @throws MemoryError `git.bad-revision` when `rev` names no commit.
 */
export async function readTreeAt(repo: GitRepo, scope: MemoryScope, rev: string): Promise<TreeSnapshot> {
  const oid = await resolveRevision(repo, rev);
  const { commit } = await guard('git.readTreeAt', () =>
    git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache }),
  );
  const files = new Map<string, string>();
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  for (const f of await listTree(repo, commit.tree, scope)) {
    if (f.mode === '120000' || f.mode === '160000') continue; // symlinks and submodules carry no memory text
    const { blob } = await guard('git.readTreeAt', () =>
      git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid: f.oid, cache: repo.cache }),
    );
    if (blob.subarray(0, 8192).includes(0)) continue;
    files.set(f.path, decoder.decode(blob));
  }
  return { oid, files };
}

/**
 * The memory files that differ between two revisions, each side read as {@link readTreeAt} reads it:
 * both trees are listed (tree objects only) and only the blobs whose id differs between them are read,
 * so a diff of two commits costs what changed, not the size of the workspace. A path absent from
 * one side's map was absent from that tree (or a symlink, submodule or binary file there).
 */
export async function readChangedTrees(
  repo: GitRepo,
  scope: MemoryScope,
  from: string,
  to: string,
): Promise<{ readonly from: TreeSnapshot; readonly to: TreeSnapshot }> {
  const [a, b] = await Promise.all([listAt(repo, scope, from), listAt(repo, scope, to)]);
  const same = (x: ListedFile, y: ListedFile | undefined) => y !== undefined && y.oid === x.oid && y.mode === x.mode;
  const changed = (side: ListedFile[], other: ReadonlyMap<string, ListedFile>) =>
    side.filter((f) => !same(f, other.get(f.path)));
  const byPath = (side: ListedFile[]) => new Map(side.map((f) => [f.path, f]));
  return {
    from: { oid: a.oid, files: await readBlobs(repo, changed(a.files, byPath(b.files))) },
    to: { oid: b.oid, files: await readBlobs(repo, changed(b.files, byPath(a.files))) },
  };
}

type ListedFile = Awaited<ReturnType<typeof listTree>>[number];

async function listAt(repo: GitRepo, scope: MemoryScope, rev: string): Promise<{ oid: string; files: ListedFile[] }> {
  const oid = await resolveRevision(repo, rev);
  const { commit } = await guard('git.readTreeAt', () =>
    git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache }),
  );
  return { oid, files: await listTree(repo, commit.tree, scope) };
}

/** path → text of `files` (symlinks, submodules and files with NUL bytes left out, as readTreeAt does). */
async function readBlobs(repo: GitRepo, files: readonly ListedFile[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  for (const f of files) {
    if (f.mode === '120000' || f.mode === '160000') continue;
    const { blob } = await guard('git.readTreeAt', () =>
      git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid: f.oid, cache: repo.cache }),
    );
    if (blob.subarray(0, 8192).includes(0)) continue;
    out.set(f.path, decoder.decode(blob));
  }
  return out;
}

/** @returns the text of one workspace-relative file at `rev`, or undefined when it did not exist. */
export async function readFileAt(
  repo: GitRepo,
  scope: MemoryScope,
  rev: string,
  path: string,
): Promise<string | undefined> {
  const oid = await resolveRevision(repo, rev);
  try {
    const { blob } = await git.readBlob({
      fs: repo.fs,
      gitdir: repo.gitdir,
      oid,
      filepath: toRepoPath(scope, path),
      cache: repo.cache,
    });
    return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(blob);
  } catch (e) {
    if ((e as { code?: string }).code === 'NotFoundError') return undefined;
    throw e;
  }
}
