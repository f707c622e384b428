// Open a git repository for gitmem: work tree + gitdir, the fs client isomorphic-git runs on, one
// shared object cache, and the mapping of isomorphic-git errors to MemoryError('git.*').
// deps: core, isomorphic-git, node:fs/node:path (only to hand isomorphic-git its fs). Never src/parse.
import * as nodeFs from 'node:fs';
import { join, resolve } from 'node:path';
import type IsomorphicGit from 'isomorphic-git';
import { isMemoryError, MemoryError, type MemoryErrorCode } from '../core/errors.js';

type Git = typeof IsomorphicGit;
let module: Promise<Git> | undefined;

/**
 * isomorphic-git, imported on first use: it is most of the CLI bundle's code, and a one-shot
 * keyword recall never touches git, so it must not be compiled on every call.
 */
export function loadGit(): Promise<Git> {
  module ??= import('isomorphic-git').then((m) => m.default);
  return module;
}

/**
 * The isomorphic-git API (every function of it used here returns a promise), loading the module on
 * the first call; the other git/ files share this one import.
 */
export const git: Git = new Proxy({} as Git, {
  get: (_target, name) =>
    // Not a thenable: `await git` or returning it from an async function must not call into it.
    name === 'then'
      ? undefined
      : async (...args: unknown[]) =>
          ((await loadGit()) as unknown as Record<string | symbol, (...a: unknown[]) => unknown>)[name]!(...args),
});

/** An open repository. `cache` is shared by every isomorphic-git call on this repo (one process). */
export interface GitRepo {
  /** Absolute work tree (the folder that holds `.git`). */
  readonly dir: string;
  /** Absolute git directory. */
  readonly gitdir: string;
  /** The fs client handed to isomorphic-git (index writes are atomic: temp file + rename). */
  readonly fs: GitFsClient;
  /** isomorphic-git object/index cache, shared within this process. */
  readonly cache: object;
  /** A linked worktree's common git dir (objects, refs, config); absent for a main work tree. */
  readonly commondir?: string;
}

/** The subset of node:fs isomorphic-git needs, promise-based. */
export interface GitFsClient {
  readonly promises: typeof nodeFs.promises;
}

/** Which files of the work tree are memory: a folder prefix plus a filter on workspace paths. */
export interface MemoryScope {
  /** Workspace root relative to the work tree (POSIX, no leading/trailing slash); '' = the work tree itself. */
  readonly prefix: string;
  /** @returns true when the workspace-relative POSIX `path` is a memory file. */
  accept(path: string): boolean;
  /** @returns false for workspace-relative folders never worth entering (node_modules, dist). Default: all. */
  descend?(folder: string): boolean;
}

/** @returns the repo path of a workspace-relative path. */
export function toRepoPath(scope: MemoryScope, path: string): string {
  return scope.prefix ? `${scope.prefix}/${path}` : path;
}

/**
 * Files and folders of a linked worktree's own gitdir (`.git/worktrees/<name>/`); everything else
 * (objects, refs, packed-refs, config) lives in the common git dir that `commondir` names.
 */
const PER_WORKTREE =
  /^(?:HEAD|index|ORIG_HEAD|MERGE_HEAD|MERGE_MSG|MERGE_MODE|FETCH_HEAD|CHERRY_PICK_HEAD|REVERT_HEAD|AUTO_MERGE|gitdir|commondir|locked|logs\/HEAD|rebase-merge|rebase-apply|refs\/(?:bisect|worktree|rewritten)|gitmem)(?:\/|$)|^index\./;

/** @returns a path mapper sending `<gitdir>/<shared>` to `<commondir>/<shared>` (identity when there is no commondir). */
function commonPathMapper(gitdir: string, commondir: string | undefined): (p: string) => string {
  if (!commondir) return (p) => p;
  const g = gitdir.replace(/\\/g, '/').replace(/\/+$/, '');
  return (p) => {
    const n = p.replace(/\\/g, '/');
    if (!n.startsWith(`${g}/`)) return p;
    const rest = n.slice(g.length + 1);
    return PER_WORKTREE.test(rest) ? p : join(commondir, rest);
  };
}

/**
 * An fs client whose writes to `<gitdir>/index` go through a temp file + rename, so canonical git
 * (and a crash) never sees a half-written index (isomorphic-git writes the index in place). In a
 * linked worktree it also sends shared paths to the common git dir, which isomorphic-git does not
 * do by itself (it ignores `commondir`).
 */
function makeFsClient(gitdir: string, commondir?: string): GitFsClient {
  const indexPath = join(gitdir, 'index');
  const p = nodeFs.promises;
  const map = commonPathMapper(gitdir, commondir);
  const writeFile: typeof p.writeFile = async (file, data, options) => {
    if (
      typeof file === 'string' &&
      (file === indexPath || file.replace(/\\/g, '/') === indexPath.replace(/\\/g, '/'))
    ) {
      const tmp = `${indexPath}.gitmem-${process.pid}-${Date.now()}.tmp`;
      await p.writeFile(tmp, data, options);
      try {
        await p.rename(tmp, indexPath);
      } catch (e) {
        await p.rm(tmp, { force: true });
        throw e;
      }
      return;
    }
    return p.writeFile(typeof file === 'string' ? map(file) : file, data, options);
  };
  if (!commondir) return { promises: { ...p, writeFile } };
  // Every path-taking method isomorphic-git uses, mapped (first argument; rename maps both).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wraps fs methods of every signature
  const wrap = <F extends (...a: any[]) => any>(f: F): F =>
    ((first: unknown, ...rest: unknown[]) => f(typeof first === 'string' ? map(first) : first, ...rest)) as F;
  const promises = {
    ...p,
    writeFile,
    readFile: wrap(p.readFile),
    mkdir: wrap(p.mkdir),
    rmdir: wrap(p.rmdir),
    rm: wrap(p.rm),
    unlink: wrap(p.unlink),
    stat: wrap(p.stat),
    lstat: wrap(p.lstat),
    readdir: wrap(p.readdir),
    readlink: wrap(p.readlink),
    symlink: ((target: string, path: string, type?: string) => p.symlink(target, map(path), type)) as typeof p.symlink,
    chmod: wrap(p.chmod),
    rename: ((a: string, b: string) => p.rename(map(a), map(b))) as typeof p.rename,
  } as typeof p;
  return { promises };
}

/** @returns the absolute path of a file in the git dir: per-worktree files in `gitdir`, shared ones in the common dir. */
export function gitPath(repo: GitRepo, ...parts: string[]): string {
  return commonPathMapper(repo.gitdir, repo.commondir)(join(repo.gitdir, ...parts));
}

/** @returns the common git dir of a linked worktree's `gitdir`, or undefined for a main gitdir. */
function commonDirOf(gitdir: string): string | undefined {
  try {
    const text = nodeFs.readFileSync(join(gitdir, 'commondir'), 'utf8').trim();
    return text ? resolve(gitdir, text) : undefined;
  } catch {
    return undefined;
  }
}

const repos = new Map<string, GitRepo>();

/**
 * Open the repository at `workTree` whose git directory is `gitdir` (defaults to `<workTree>/.git`).
 * Instances are shared per gitdir within the process, so the cache and the checkpoint queue are too.
 * @throws MemoryError `git.not-a-repository` when `gitdir` holds no `HEAD`.
 */
export function openRepo(args: { workTree: string; gitdir?: string }): GitRepo {
  const gitdir = args.gitdir ?? join(args.workTree, '.git');
  const key = `${args.workTree}\0${gitdir}`;
  const hit = repos.get(key);
  if (hit) return hit;
  if (!nodeFs.existsSync(join(gitdir, 'HEAD'))) throw notARepository(args.workTree);
  // A linked worktree's gitdir (`.git/worktrees/<name>`) holds HEAD and its own index; objects and
  // branch refs live in the common dir, where the fs client sends them.
  const commondir = commonDirOf(gitdir);
  const repo: GitRepo = {
    dir: args.workTree,
    gitdir,
    fs: makeFsClient(gitdir, commondir),
    cache: {},
    ...(commondir ? { commondir } : {}),
  };
  repos.set(key, repo);
  return repo;
}

const SHALLOW_HINT =
  'fetch the missing history: `git fetch --deepen=<N>` for N more commits, or `git fetch --unshallow` for all of it';

/**
 * The commits a shallow clone's history stops at (`<gitdir>/shallow`, one id a line; their parents are
 * not in the clone). Empty for a full clone. (docs/bad-inputs.md R05)
 */
export async function shallowCommits(repo: GitRepo): Promise<Set<string>> {
  try {
    const text = await repo.fs.promises.readFile(join(repo.gitdir, 'shallow'), 'utf8');
    return new Set(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => /^[0-9a-f]{40,64}$/.test(l)),
    );
  } catch {
    return new Set();
  }
}

/** The error for a revision past the point where a shallow clone's history is cut. */
function shallowCut(rev: string, at: string): MemoryError {
  return new MemoryError(
    'git.shallow',
    `revision "${rev}" is not in this shallow clone: its history stops at ${at.slice(0, 7)}`,
    { data: { rev, shallowAt: at }, hint: SHALLOW_HINT },
  );
}

/** The error every git feature answers with outside a repository (docs/DESIGN.md §1). */
export function notARepository(where: string): MemoryError {
  return new MemoryError('git.not-a-repository', `not a git repository: ${where}`, {
    data: { path: where },
    hint: 'run `git init` to put the workspace under git (then `gitmem doctor --fix` for the merge rules)',
  });
}

const CODE_MAP: Readonly<Record<string, MemoryErrorCode>> = {
  NotFoundError: 'git.not-found',
  UnmergedPathsError: 'git.merge-in-progress',
  AmbiguousError: 'git.bad-revision',
  InvalidOidError: 'git.bad-revision',
  InvalidRefNameError: 'git.bad-revision',
  ParseError: 'git.corrupt',
  ObjectTypeError: 'git.corrupt',
  InternalError: 'git.corrupt',
  DecompressionError: 'git.corrupt',
};

/**
 * Map anything thrown by isomorphic-git (or node:fs under it) to a {@link MemoryError}.
 * A MemoryError passes through with `caller` filled in.
 */
function toGitError(e: unknown, caller: string, fallback: MemoryErrorCode = 'git.failed'): MemoryError {
  if (isMemoryError(e)) {
    e.caller ??= caller;
    return e;
  }
  const err = e as { code?: unknown; message?: unknown; data?: unknown };
  const raw = typeof err?.code === 'string' ? err.code : undefined;
  let code: MemoryErrorCode = (raw && CODE_MAP[raw]) || fallback;
  if (raw === 'EACCES' || raw === 'EPERM' || raw === 'EBUSY') code = 'git.busy';
  const message = typeof err?.message === 'string' ? err.message : String(e);
  return new MemoryError(code, `${caller}: ${message}`, {
    cause: e,
    caller,
    data: { gitCode: raw ?? null },
    ...(code === 'git.corrupt' ? { hint: 'run `git fsck` to check the repository' } : {}),
  });
}

/** Run `fn`, mapping its failures with {@link toGitError}. */
export async function guard<T>(caller: string, fn: () => Promise<T>, fallback?: MemoryErrorCode): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toGitError(e, caller, fallback);
  }
}

/** What HEAD points at. */
export type HeadState =
  | { readonly kind: 'branch'; readonly ref: string; readonly oid: string }
  | { readonly kind: 'unborn'; readonly ref: string }
  | { readonly kind: 'detached'; readonly oid: string };

/** Read HEAD without resolving through isomorphic-git (works for unborn branches and detached HEADs). */
export async function readHead(repo: GitRepo): Promise<HeadState> {
  const text = (await nodeFs.promises.readFile(join(repo.gitdir, 'HEAD'), 'utf8')).trim();
  const m = /^ref:\s*(\S+)$/.exec(text);
  if (!m) {
    if (!/^[0-9a-f]{40}$/.test(text)) throw new MemoryError('git.corrupt', `HEAD is unreadable: ${text.slice(0, 60)}`);
    return { kind: 'detached', oid: text };
  }
  const ref = m[1]!;
  try {
    const oid = await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref });
    return { kind: 'branch', ref, oid };
  } catch (e) {
    if ((e as { code?: string }).code === 'NotFoundError') return { kind: 'unborn', ref };
    throw toGitError(e, 'git.readHead');
  }
}

/**
 * The commits of `ref`'s history that changed `filepath` (repository path, POSIX), newest first, at
 * most `depth` looked at (isomorphic-git's `log` with a file path, following renames as it does).
 * @returns [] when the file is not in `ref` (a new, uncommitted file) or the history is unreadable:
 * callers read "no history" either way.
 */
export async function fileCommits(
  repo: GitRepo,
  ref: string,
  filepath: string,
  depth: number,
): Promise<Awaited<ReturnType<Git['log']>>> {
  try {
    return await git.log({ fs: repo.fs, dir: repo.dir, gitdir: repo.gitdir, ref, filepath, depth, cache: repo.cache });
  } catch {
    return [];
  }
}

/**
 * Resolve a revision to a commit id: a full or abbreviated oid, `HEAD`, a branch or tag name, each
 * optionally followed by `~N` / `^` / `^N` (first-parent steps, as far as `^1`).
 * @throws MemoryError `git.bad-revision` when it names nothing.
 */
export async function resolveRevision(repo: GitRepo, rev: string): Promise<string> {
  const spec = rev.trim();
  const m = /^(.*?)((?:~\d*|\^\d*)*)$/.exec(spec);
  const base = m?.[1] ?? spec;
  const steps = m?.[2] ?? '';
  if (!base) throw new MemoryError('git.bad-revision', `bad revision "${rev}"`, { data: { rev } });
  let oid: string | undefined;
  try {
    oid = await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref: base });
  } catch {
    if (/^[0-9a-f]{4,40}$/i.test(base)) {
      try {
        oid = await git.expandOid({ fs: repo.fs, gitdir: repo.gitdir, oid: base.toLowerCase(), cache: repo.cache });
      } catch {
        /* fall through to the error below */
      }
    }
  }
  if (!oid) {
    // A repository without commits names nothing at all (B64): say that, not "unknown revision".
    const empty = await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref: 'HEAD' }).then(
      () => false,
      () => true,
    );
    if (empty)
      throw new MemoryError('git.bad-revision', `unknown revision "${rev}": this repository has no commits yet`, {
        data: { rev },
        hint: 'make the first commit (`gitmem checkpoint` commits the memory files); until then there is no revision to compare with',
      });
    if ((await shallowCommits(repo)).size > 0)
      throw new MemoryError(
        'git.shallow',
        `unknown revision "${rev}": it may be in the history this shallow clone does not hold`,
        {
          data: { rev },
          hint: SHALLOW_HINT,
        },
      );
    throw new MemoryError('git.bad-revision', `unknown revision "${rev}"`, {
      data: { rev },
      hint: 'use a commit id, a branch or tag name, or HEAD~N (see `gitmem log`)',
    });
  }
  oid = await peelToCommit(repo, oid, rev);
  for (const step of steps.match(/~\d*|\^\d*/g) ?? []) {
    const n = step.length > 1 ? Number(step.slice(1)) : 1;
    if (step.startsWith('^') && n > 1)
      throw new MemoryError('git.bad-revision', `only first parents are supported: "${rev}"`, { data: { rev } });
    const count = step.startsWith('^') ? (step === '^0' ? 0 : 1) : n;
    for (let i = 0; i < count; i++) {
      if ((await shallowCommits(repo)).has(oid)) throw shallowCut(rev, oid);
      const c = await guard('git.resolveRevision', () =>
        git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid: oid!, cache: repo.cache }),
      );
      const parent = c.commit.parent[0];
      if (!parent)
        throw new MemoryError('git.bad-revision', `revision "${rev}" goes past the first commit`, { data: { rev } });
      oid = parent;
    }
  }
  return oid;
}

async function peelToCommit(repo: GitRepo, oid: string, rev: string): Promise<string> {
  for (let i = 0; i < 10; i++) {
    const obj = await guard('git.resolveRevision', () =>
      git.readObject({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache, format: 'parsed' }),
    );
    if (obj.type === 'commit') return oid;
    if (obj.type === 'tag') {
      oid = (obj.object as { object: string }).object;
      continue;
    }
    break;
  }
  throw new MemoryError('git.bad-revision', `revision "${rev}" is not a commit`, { data: { rev } });
}
