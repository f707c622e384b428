// What changed in the memory files since HEAD: {added, modified, deleted}, restricted to the
// memory scope. This is the ONE change detector (B20): checkpoint uses it too. It is statusMatrix's
// HEAD-vs-workdir column, but it always hashes the file content (with core.autocrlf applied the way
// `git add` does) instead of trusting the index's stat cache, so a same-size rewrite within the
// timestamp granularity is never missed (B21). Memory files are small; hashing them is cheap.
// deps: core, isomorphic-git (through repo.ts), node:fs, node:crypto.
import { createHash } from 'node:crypto';
import { promises as fsp, type BigIntStats } from 'node:fs';
import { join, sep } from 'node:path';
import { decodeText } from '../core/text.js';
import { indexHolds } from './index-flags.js';
import { caseFolded, cleanBlob, filteredPaths, ignoresCase } from './work-filters.js';
import { git, guard, readHead, toRepoPath, type GitRepo, type HeadState, type MemoryScope } from './repo.js';

/** A git file mode as isomorphic-git writes it in trees. */
export type GitMode = '100644' | '100755' | '120000';

/** A memory file in the work tree, hashed exactly as `git add` would store it. */
export interface WorkFile {
  /** Path in the repository (work-tree relative, POSIX). */
  readonly repoPath: string;
  /** Workspace-relative path. */
  readonly path: string;
  readonly oid: string;
  readonly mode: GitMode;
  /** The blob content (line ends converted when core.autocrlf says so). */
  readonly blob: Uint8Array;
  /** lstat taken BEFORE the content was read, for the index entry (a later write changes it). */
  readonly stat: IndexStat;
}

/** Stat fields git keeps in an index entry. */
export interface IndexStat {
  readonly ctimeSeconds: number;
  readonly ctimeNanoseconds: number;
  readonly mtimeSeconds: number;
  readonly mtimeNanoseconds: number;
  readonly dev: number;
  readonly ino: number;
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
  readonly size: number;
}

/** A memory file in HEAD's tree. */
export interface HeadFile {
  readonly repoPath: string;
  readonly path: string;
  readonly oid: string;
  readonly mode: string;
}

/** Workspace-relative memory paths that differ between HEAD and the work tree, each list sorted. */
export interface ChangeSet {
  readonly added: readonly string[];
  readonly modified: readonly string[];
  readonly deleted: readonly string[];
}

/** {@link ChangeSet} plus what checkpoint needs to commit it. */
export interface MemoryStatus extends ChangeSet {
  readonly head: HeadState;
  /** HEAD's root tree; undefined when there are no commits yet. */
  readonly headTree: string | undefined;
  /** Work-tree memory files by repo path. */
  readonly work: ReadonlyMap<string, WorkFile>;
  /** HEAD memory files by repo path. */
  readonly headFiles: ReadonlyMap<string, HeadFile>;
  /** Untracked memory files (workspace-relative, sorted) that `.gitignore` excludes: never committed. */
  readonly ignored: readonly string[];
  /**
   * Memory files (workspace-relative, sorted) whose work-tree bytes hold NUL, the reader's and git's
   * test for binary: git would show their change only as "Binary files differ", so no review could
   * see it, and recall skips them. Never added or changed; a tracked one is not deleted either.
   */
  readonly binary: readonly string[];
  /**
   * Memory files (workspace-relative, sorted) whose work-tree state differs from HEAD but whose index
   * entry git keeps as it is (skip-worktree: outside a sparse cone or never checked out; assume-unchanged):
   * `git status` shows no change for them, so they are neither committed nor deleted (R01).
   */
  readonly held: readonly string[];
  /**
   * Symbolic links to folders that stand where memory is tracked, or lead to a folder outside the memory
   * folders: git stores the link, not the files behind it, so a commit would delete the tracked files or
   * never hold the new ones (R02). Checkpoint refuses while there are any.
   */
  readonly linkedFolders: readonly LinkedFolder[];
  /** Folders in the memory scope that are their own git repository (a submodule, a nested clone): not walked (R82). */
  readonly nestedRepos: readonly string[];
}

/** A symlinked folder in the memory scope that git would not follow (see MemoryStatus.linkedFolders). */
export interface LinkedFolder {
  /** Workspace-relative path of the link. */
  readonly path: string;
  /** Where it leads: workspace-relative, or absolute when outside the workspace. */
  readonly target: string;
  /** HEAD's memory files under the link's path, which a commit of the work tree would delete. */
  readonly tracked: number;
}

/** @returns true when nothing changed. */
export function isClean(c: ChangeSet): boolean {
  return c.added.length === 0 && c.modified.length === 0 && c.deleted.length === 0;
}

/**
 * Compare the memory files of the work tree with HEAD. Untracked files that `.gitignore` excludes are
 * left out (as `git add` would); tracked ones are always included (B24). Never writes anything.
 */
export async function memoryStatus(repo: GitRepo, scope: MemoryScope): Promise<MemoryStatus> {
  const head = await readHead(repo);
  let headTree: string | undefined;
  const headFiles = new Map<string, HeadFile>();
  if (head.kind !== 'unborn') {
    const c = await guard('git.status', () =>
      git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: head.oid, cache: repo.cache }),
    );
    headTree = c.commit.tree;
    for (const f of await listTree(repo, headTree, scope)) headFiles.set(f.repoPath, f);
  }
  const autocrlf = await readAutocrlf(repo);
  const filemode =
    (await guard('git.status', () => git.getConfig({ fs: repo.fs, gitdir: repo.gitdir, path: 'core.filemode' }))) !==
    false;
  const work = new Map<string, WorkFile>();
  const { paths, links, nested } = await listWorkTree(repo, scope);
  const holds = await indexHolds(repo);
  const held: string[] = [];
  // Hash with bounded parallelism: sequential lstat+read per file is I/O-latency bound.
  const ignored: string[] = [];
  // Links that leave the workspace: every reader refuses them, so no commit adds, changes or deletes them.
  const outside = new Set<string>();
  const binary: string[] = [];
  const root = await fsp.realpath(scope.prefix ? join(repo.dir, scope.prefix) : repo.dir).catch(() => repo.dir);
  const hashed = await mapLimit(paths, 32, async (path) => {
    const repoPath = toRepoPath(scope, path);
    const known = headFiles.get(repoPath);
    if (holds.held(repoPath)) {
      // Kept as the index has it; named only when the work tree differs from HEAD (git hides that change).
      const f = await hashWorkFile(repo, repoPath, path, autocrlf, filemode, known?.mode);
      if (!known || !f || f.oid !== known.oid || f.mode !== known.mode) held.push(path);
      outside.add(repoPath);
      return undefined;
    }
    if (!known && (await isIgnored(repo, repoPath))) {
      ignored.push(path);
      return undefined;
    }
    if (await leadsOutside(join(repo.dir, repoPath), root)) {
      outside.add(repoPath);
      return undefined;
    }
    const f = await hashWorkFile(repo, repoPath, path, autocrlf, filemode, known?.mode);
    // Unreviewable (docs/bad-inputs.md U16): held back like a link that leaves the workspace.
    if (f && f.mode !== '120000' && decodeText(f.blob).problem === 'binary') {
      binary.push(path);
      outside.add(repoPath);
      return undefined;
    }
    return f;
  });
  for (const f of hashed) if (f) work.set(f.repoPath, f);
  await readAsGitDoes(repo, work, headFiles, outside);
  const added: string[] = [];
  const modified: string[] = [];
  const deleted: string[] = [];
  for (const [rp, f] of work) {
    const h = headFiles.get(rp);
    if (!h) added.push(f.path);
    else if (h.oid !== f.oid || h.mode !== f.mode) modified.push(f.path);
  }
  for (const [rp, h] of headFiles) {
    if (work.has(rp) || outside.has(rp)) continue;
    if (holds.held(rp)) held.push(h.path);
    else deleted.push(h.path);
  }
  const linkedFolders = await linkedFoldersOf(links, headFiles, scope, root);
  return {
    head,
    headTree,
    work,
    headFiles,
    ignored: ignored.sort(),
    binary: binary.sort(),
    held: held.sort(),
    linkedFolders,
    nestedRepos: nested,
    added: added.sort(),
    modified: modified.sort(),
    deleted: deleted.sort(),
  };
}

/**
 * Clean filters and case-only renames, as git reads the work tree (R06): a changed file under a clean
 * filter gets the blob git would store; under core.ignorecase a file renamed only in case is keyed by
 * the name HEAD tracks. Changes `work` in place.
 */
async function readAsGitDoes(
  repo: GitRepo,
  work: Map<string, WorkFile>,
  headFiles: ReadonlyMap<string, HeadFile>,
  outside: ReadonlySet<string>,
): Promise<void> {
  const changed = [...work.values()].filter((f) => headFiles.get(f.repoPath)?.oid !== f.oid).map((f) => f.repoPath);
  for (const rp of await filteredPaths(repo, changed)) {
    const c = await cleanBlob(repo, rp);
    const f = work.get(rp)!;
    if (c) work.set(rp, { ...f, oid: c.oid, blob: c.blob });
  }
  if (changed.length === 0 || !(await ignoresCase(repo))) return;
  const present = new Set([...work.keys(), ...outside]);
  for (const [w, h] of caseFolded(changed, new Set(headFiles.keys()), present)) {
    const f = work.get(w)!;
    work.delete(w);
    work.set(h, { ...f, repoPath: h, path: headFiles.get(h)!.path });
  }
}

/** `fn` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Every memory file of the tree `treeOid` (recursively, under the scope's prefix). */
export async function listTree(repo: GitRepo, treeOid: string, scope: MemoryScope): Promise<HeadFile[]> {
  const out: HeadFile[] = [];
  let start = treeOid;
  if (scope.prefix) {
    const sub = await subtreeOid(repo, treeOid, scope.prefix);
    if (!sub) return out;
    start = sub;
  }
  const walkTree = async (oid: string, base: string): Promise<void> => {
    const { tree } = await guard('git.listTree', () =>
      git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache }),
    );
    for (const e of tree) {
      const rel = base ? `${base}/${e.path}` : e.path;
      if (e.type === 'tree') {
        if (!scope.descend || scope.descend(rel)) await walkTree(e.oid, rel);
      } else if (e.type === 'blob' && scope.accept(rel)) {
        out.push({ repoPath: toRepoPath(scope, rel), path: rel, oid: e.oid, mode: e.mode });
      }
    }
  };
  await walkTree(start, '');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** @returns the oid of the tree at folder `path` inside `treeOid`, or undefined when absent. */
export async function subtreeOid(repo: GitRepo, treeOid: string, path: string): Promise<string | undefined> {
  let oid = treeOid;
  for (const part of path.split('/').filter(Boolean)) {
    const { tree } = await guard('git.readTree', () =>
      git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache }),
    );
    const e = tree.find((t) => t.path === part && t.type === 'tree');
    if (!e) return undefined;
    oid = e.oid;
  }
  return oid;
}

/**
 * Workspace-relative paths of memory files in the work tree (no `.git`, no nested repositories), and
 * the symbolic links to folders met on the way (workspace-relative; not entered).
 */
async function listWorkTree(
  repo: GitRepo,
  scope: MemoryScope,
): Promise<{ paths: string[]; links: string[]; nested: string[] }> {
  const root = scope.prefix ? join(repo.dir, scope.prefix) : repo.dir;
  const out: string[] = [];
  const links: string[] = [];
  const nested: string[] = [];
  const visit = async (abs: string, rel: string): Promise<void> => {
    let names: import('node:fs').Dirent[];
    try {
      names = await fsp.readdir(abs, { withFileTypes: true });
    } catch {
      return; // unreadable or vanished folder: nothing to commit from it
    }
    for (const d of names) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (d.name === '.git') continue;
        if (scope.descend && !scope.descend(r)) continue;
        try {
          await fsp.lstat(join(abs, d.name, '.git'));
          nested.push(r);
          continue; // a nested repository or submodule is not ours
        } catch {
          /* not a nested repository */
        }
        await visit(join(abs, d.name), r);
      } else if ((d.isFile() || d.isSymbolicLink()) && scope.accept(r)) out.push(r);
      else if (d.isSymbolicLink() && (!scope.descend || scope.descend(r))) {
        const st = await fsp.stat(join(abs, d.name)).catch(() => undefined);
        if (st?.isDirectory()) links.push(r);
      }
    }
  };
  await visit(root, '');
  return { paths: out.sort(), links: links.sort(), nested: nested.sort() };
}

/**
 * The symlinked folders git would not follow to memory (MemoryStatus.linkedFolders): those standing
 * where HEAD tracks memory files, and those leading inside the workspace to a folder that is not a
 * memory folder (its files would never be committed). A link to another memory folder (U65's alias)
 * hides nothing and is left out; a link outside the workspace that tracks nothing is every reader's
 * refusal already (U10).
 */
async function linkedFoldersOf(
  links: readonly string[],
  headFiles: ReadonlyMap<string, HeadFile>,
  scope: MemoryScope,
  root: string,
): Promise<LinkedFolder[]> {
  const out: LinkedFolder[] = [];
  for (const link of links) {
    let tracked = 0;
    for (const h of headFiles.values()) if (h.path.startsWith(`${link}/`)) tracked++;
    let target: string;
    let inside: boolean;
    try {
      const real = await fsp.realpath(join(root, link));
      inside = real.startsWith(`${root}${sep}`);
      target = inside
        ? real
            .slice(root.length + 1)
            .split(sep)
            .join('/')
        : real;
    } catch {
      continue; // vanished since it was listed
    }
    const hidesMemory = inside && !(scope.descend ? scope.descend(target) : true);
    if (tracked > 0 || hidesMemory) out.push({ path: link, target, tracked });
  }
  return out;
}

/**
 * @returns true when `abs` is a symbolic link whose target (followed all the way) is not inside
 * `root` (a real path) or lies in its `.git` / `.gitmem` folder, or cannot be resolved (dangling, a loop).
 */
async function leadsOutside(abs: string, root: string): Promise<boolean> {
  try {
    if (!(await fsp.lstat(abs)).isSymbolicLink()) return false;
  } catch {
    return false; // vanished: hashing reports it absent
  }
  try {
    const real = await fsp.realpath(abs);
    if (real === root) return false;
    if (!real.startsWith(`${root}${sep}`)) return true;
    // Into git's own folder or gitmem's derived state counts as out of the workspace (U38).
    return real
      .slice(root.length + 1)
      .split(sep)
      .some((s) => s === '.git' || s === '.gitmem');
  } catch {
    return true;
  }
}

async function isIgnored(repo: GitRepo, repoPath: string): Promise<boolean> {
  try {
    return await git.isIgnored({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, filepath: repoPath });
  } catch {
    return false;
  }
}

/** `core.autocrlf` as git applies it on `add`: `true` and `input` both turn CRLF into LF. */
async function readAutocrlf(repo: GitRepo): Promise<boolean> {
  const v = await guard('git.config', () => git.getConfig({ fs: repo.fs, gitdir: repo.gitdir, path: 'core.autocrlf' }));
  const s = String(v ?? '').toLowerCase();
  return s === 'true' || s === 'input';
}

/** Content → blob bytes as `git add` stores them (CRLF → LF under autocrlf, text files only). */
function toBlob(content: Uint8Array, autocrlf: boolean): Uint8Array {
  if (!autocrlf || !content.includes(13) || content.includes(0)) return content;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(content);
  } catch {
    return content; // not UTF-8 text: stored as is (isomorphic-git does the same)
  }
  return new TextEncoder().encode(text.replace(/\r\n/g, '\n'));
}

/** Git blob id of `content`. */
function blobOid(content: Uint8Array): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
}

async function hashWorkFile(
  repo: GitRepo,
  repoPath: string,
  path: string,
  autocrlf: boolean,
  filemode: boolean,
  headMode: string | undefined,
): Promise<WorkFile | undefined> {
  const abs = join(repo.dir, repoPath);
  let st: BigIntStats;
  try {
    st = await fsp.lstat(abs, { bigint: true });
  } catch {
    return undefined; // vanished between listing and hashing: it counts as absent
  }
  let content: Uint8Array;
  let mode: GitMode;
  try {
    if (st.isSymbolicLink()) {
      content = new TextEncoder().encode(await fsp.readlink(abs));
      mode = '120000';
    } else if (st.isFile()) {
      content = toBlob(new Uint8Array(await fsp.readFile(abs)), autocrlf);
      const exec = (Number(st.mode) & 0o100) !== 0;
      mode = filemode ? (exec ? '100755' : '100644') : headMode === '100755' ? '100755' : '100644';
    } else return undefined;
  } catch {
    return undefined;
  }
  const ns = (t: bigint) => ({ s: Number(t / 1_000_000_000n), n: Number(t % 1_000_000_000n) });
  const c = ns(st.ctimeNs);
  const m = ns(st.mtimeNs);
  return {
    repoPath,
    path,
    oid: blobOid(content),
    mode,
    blob: content,
    stat: {
      ctimeSeconds: c.s,
      ctimeNanoseconds: c.n,
      mtimeSeconds: m.s,
      mtimeNanoseconds: m.n,
      dev: Number(st.dev),
      ino: Number(st.ino),
      mode: Number(st.mode),
      uid: Number(st.uid),
      gid: Number(st.gid),
      size: Number(st.size),
    },
  };
}
