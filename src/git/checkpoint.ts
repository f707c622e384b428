// Checkpoint = one commit holding ONLY the memory files' changes. The tree is HEAD's tree with the
// memory blobs swapped in, so the user's other staged and unstaged work is neither committed nor
// disturbed; afterwards only the memory paths' index entries are updated (to the committed blobs).
// Serialised by withRepoLock (B23); refuses during merge/rebase; scans added lines for secrets.
// A repository that signs its commits gets a signed one (git/signing.ts, the system git).
// deps: core, isomorphic-git (through repo.ts), git/signing, node:fs/path. Never src/parse: kinds and ids come
// from the caller's `describe` callback.
import { promises as fsp } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryError } from '../core/errors.js';
import { lineDiff } from './diff.js';
import { resolveIdentity, type GitIdentity, type IdentityEnv, type IdentitySource } from './identity.js';
import { releaseRefLock, takeRefLock, withRepoLock, type LockOptions } from './lock.js';
import { buildMessage, type MemoryChangeTrailer, type MemoryOp } from './message.js';
import { git, gitPath, guard, type GitRepo, type HeadState, type MemoryScope } from './repo.js';
import { conflictBlocks } from '../core/conflict-markers.js';
import { findSecretsAdded, findSecretsInText, MARKED_BY_HAND_HINT, type SecretFinding } from '../core/secrets.js';
import { isClean, mapLimit, memoryStatus, type ChangeSet, type MemoryStatus } from './status.js';
import { assertNoNestedMemoryChanges } from './nested-repos.js';
import { writeSignedCommitIfConfigured } from './signing.js';
import { runGit } from './system-git.js';

/** What the caller knows about a changed file (its kind and id, from parsing it). */
export interface ChangeInfo {
  readonly kind?: string;
  readonly id?: string;
}

export interface CheckpointOptions {
  readonly scope: MemoryScope;
  /** Commit message; first line is the summary. Default: a summary of the changes. */
  readonly message?: string;
  /** `Memory-Reason` trailer. */
  readonly reason?: string;
  /** Explicit author; otherwise resolved as in {@link resolveIdentity}. */
  readonly author?: Partial<GitIdentity>;
  /** Pin the commit time (tests, reproducible commits). Default: now. */
  readonly timestamp?: { readonly seconds: number; readonly timezoneOffset: number };
  /** Clock for the default timestamp. */
  readonly now?: () => Date;
  /** Commit even when secrets are found (they are still reported). */
  readonly force?: boolean;
  /**
   * Kind and id of a changed file; `text` is the new text, or the old one for a deletion.
   * Called for every change; without it trailers carry only op and path.
   */
  readonly describe?: (change: { path: string; op: MemoryOp; text: string }) => ChangeInfo | undefined;
  readonly lock?: LockOptions;
  readonly identity?: IdentityEnv;
}

/**
 * What a checkpoint left out, as the status found it (see {@link MemoryStatus}): `ignored` (`.gitignore`
 * excludes them: read by recall, never committed), `binary` (NUL bytes: held back unreviewable), `held`
 * (git keeps them as the index has them: sparse cone, skip-worktree, assume-unchanged; R01).
 */
export type CheckpointLeftOut = Pick<MemoryStatus, 'ignored' | 'binary' | 'held'>;

export interface CommittedCheckpoint extends CheckpointLeftOut {
  readonly kind: 'committed';
  readonly oid: string;
  readonly parent: string | null;
  /** Short branch name; null on a detached HEAD. */
  readonly branch: string | null;
  readonly summary: string;
  readonly message: string;
  readonly author: GitIdentity & {
    readonly timestamp: number;
    readonly timezoneOffset: number;
    readonly source: IdentitySource;
  };
  readonly changes: ChangeSet;
  readonly trailers: readonly MemoryChangeTrailer[];
  /** Secrets committed anyway because of `force`. */
  readonly secrets: readonly SecretFinding[];
}

export interface NothingToCommit extends CheckpointLeftOut {
  readonly kind: 'nothing-to-commit';
  readonly head: string | null;
}

export type CheckpointResult = CommittedCheckpoint | NothingToCommit;

/** State files of an operation in progress, and what to call it. */
const IN_PROGRESS: ReadonlyArray<[string, string]> = [
  ['MERGE_HEAD', 'merge'],
  ['rebase-merge', 'rebase'],
  ['rebase-apply', 'rebase'],
  ['CHERRY_PICK_HEAD', 'cherry-pick'],
  ['REVERT_HEAD', 'revert'],
];

/** @throws MemoryError `git.merge-in-progress` when a merge, rebase, cherry-pick or revert is under way. */
async function assertNoOperationInProgress(repo: GitRepo): Promise<void> {
  for (const [file, what] of IN_PROGRESS) {
    try {
      await fsp.lstat(join(repo.gitdir, file));
    } catch {
      continue;
    }
    throw new MemoryError(
      'git.merge-in-progress',
      `a ${what} is in progress; memory is not checkpointed until it is finished`,
      {
        data: { operation: what, marker: file },
        hint: `finish or abort the ${what} (git ${what === 'rebase' ? 'rebase --continue / --abort' : `${what} --continue / --abort`}), then checkpoint`,
        caller: 'git.checkpoint',
      },
    );
  }
}

/**
 * Commit the memory changes of the work tree.
 * @returns `{kind:'nothing-to-commit'}` when the memory files match HEAD (a normal result).
 * @throws MemoryError `git.merge-in-progress`, `git.busy` (locks held / HEAD moved), `git.secrets-found`
 *   (with `data.findings`, unless `force`), `git.conflict-markers` (unless `force`), `git.not-a-repository`.
 */
export function checkpoint(repo: GitRepo, options: CheckpointOptions): Promise<CheckpointResult> {
  // Enqueue synchronously, so checkpoints run in call order (B23); every check happens under the lock.
  return withRepoLock(
    repo.gitdir,
    async () => {
      await assertNoOperationInProgress(repo);
      const status = await memoryStatus(repo, options.scope);
      assertNoLinkedFolders(status);
      await assertNoNestedMemoryChanges(status.nestedRepos, repo, options.scope); // R82
      if (isClean(status))
        return {
          kind: 'nothing-to-commit' as const,
          head: status.head.kind === 'unborn' ? null : status.head.oid,
          ignored: status.ignored,
          binary: status.binary,
          held: status.held,
        };
      return commitStatus(repo, status, options);
    },
    options.lock,
  ).catch((e: unknown) => {
    if (e instanceof MemoryError) e.caller ??= 'git.checkpoint';
    throw e;
  });
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * A HEAD blob's text. A partial clone (`--filter=blob:none`) may not hold it: the system git fetches
 * it from the promisor remote (`git cat-file`); when that fails too the old text counts as empty, so
 * the secret scan reads the whole new text (the trailer loses only the old kind and id).
 */
async function blobText(repo: GitRepo, oid: string): Promise<string> {
  try {
    const { blob } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache });
    return decoder.decode(blob);
  } catch {
    const r = await runGit(repo.dir, ['cat-file', 'blob', oid]).catch(() => undefined);
    return r?.code === 0 ? r.stdout : '';
  }
}

async function commitStatus(
  repo: GitRepo,
  status: MemoryStatus,
  options: CheckpointOptions,
): Promise<CommittedCheckpoint> {
  const scope = options.scope;
  const rp = (p: string) => (scope.prefix ? `${scope.prefix}/${p}` : p);
  const trailers: MemoryChangeTrailer[] = [];
  const findings: SecretFinding[] = [];
  const marked: string[] = [];
  const ops: Array<[string, MemoryOp]> = [
    ...status.added.map((p): [string, MemoryOp] => [p, 'add']),
    ...status.modified.map((p): [string, MemoryOp] => [p, 'update']),
    ...status.deleted.map((p): [string, MemoryOp] => [p, 'delete']),
  ].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [path, op] of ops) {
    const work = status.work.get(rp(path));
    const head = status.headFiles.get(rp(path));
    const newText = work ? decoder.decode(work.blob) : '';
    const oldText = head ? await blobText(repo, head.oid) : '';
    const info = options.describe?.({ path, op, text: op === 'delete' ? oldText : newText });
    trailers.push({ op, path, ...(info?.kind ? { kind: info.kind } : {}), ...(info?.id ? { id: info.id } : {}) });
    if (op !== 'delete' && work?.mode !== '120000') {
      findings.push(...findSecretsAdded(path, newText, lineDiff(oldText, newText).added));
      // A merge left unresolved: more marker blocks than HEAD's version holds (U46).
      const blocks = conflictBlocks(newText);
      if (blocks.length > conflictBlocks(oldText).length) marked.push(`${path}:${blocks[0]!.startLine + 1}`);
    }
  }
  if (marked.length && !options.force) {
    throw new MemoryError(
      'git.conflict-markers',
      `unresolved merge conflict markers in ${marked.slice(0, 5).join(', ')}${marked.length > 5 ? `, and ${marked.length - 5} more` : ''}; nothing committed`,
      {
        data: { files: marked },
        hint: 'keep the right lines and remove the <<<<<<< / ======= / >>>>>>> markers (gitmem validate shows each block), then checkpoint again; --force commits them anyway',
      },
    );
  }
  // The message and its trailers (summary, --message, --reason, ids) are scanned like the files.
  const draft = buildMessage({
    ...(options.message !== undefined ? { message: options.message } : {}),
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
    changes: trailers,
  });
  findings.push(...findSecretsInText('commit message', draft));
  if (findings.length && !options.force) {
    const where = findings.map((f) => `${f.path}:${f.line} (${f.rule})`);
    throw new MemoryError(
      'git.secrets-found',
      `possible secrets in the memory changes: ${where.slice(0, 5).join(', ')}${where.length > 5 ? `, and ${where.length - 5} more` : ''}`,
      {
        data: { findings },
        hint: `remove them (${MARKED_BY_HAND_HINT}), or checkpoint with --force`,
      },
    );
  }

  // Blobs, then the new tree: HEAD's tree with only the memory paths replaced.
  const edits = new Map<string, { oid: string; mode: string } | null>();
  for (const [path, op] of ops) {
    const f = op === 'delete' ? undefined : status.work.get(rp(path))!;
    edits.set(rp(path), f ? { oid: f.oid, mode: f.mode } : null);
  }
  const toWrite = ops.filter(([, op]) => op !== 'delete').map(([p]) => status.work.get(rp(p))!);
  await mapLimit(toWrite, 16, (f) =>
    guard('git.checkpoint', () => git.writeBlob({ fs: repo.fs, gitdir: repo.gitdir, blob: f.blob })),
  );
  const tree = (await rewriteTree(repo, status.headTree, edits)) ?? (await writeEmptyTree(repo));

  const id = await resolveIdentity(repo, options.author, options.identity);
  const when = options.timestamp ?? stamp((options.now ?? (() => new Date()))());
  const person = { name: id.name, email: id.email, timestamp: when.seconds, timezoneOffset: when.timezoneOffset };
  const message = buildMessage({
    ...(options.message !== undefined ? { message: options.message } : {}),
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
    changes: trailers,
  });
  const parent = status.head.kind === 'unborn' ? null : status.head.oid;
  const oid =
    (await writeSignedCommitIfConfigured(repo.dir, { message, tree, parent, person })) ??
    (await guard('git.checkpoint', () =>
      git.writeCommit({
        fs: repo.fs,
        gitdir: repo.gitdir,
        commit: { message, tree, parent: parent ? [parent] : [], author: person, committer: person },
      }),
    ));
  const summary = message.split('\n')[0]!;
  await updateHead(repo, status.head, oid, `commit${parent ? '' : ' (initial)'}: ${summary}`, person);
  await syncIndex(
    repo,
    status,
    ops.map(([p]) => rp(p)),
  );
  return {
    kind: 'committed',
    oid,
    parent,
    branch: status.head.kind === 'detached' ? null : status.head.ref.replace(/^refs\/heads\//, ''),
    summary,
    message,
    author: { ...person, source: id.source },
    changes: { added: status.added, modified: status.modified, deleted: status.deleted },
    trailers,
    secrets: findings,
    ignored: status.ignored,
    binary: status.binary,
    held: status.held,
  };
}

/**
 * @throws MemoryError `git.linked-folder` when a memory folder is a symbolic link git would commit as a
 *   link (deleting the tracked files under its path) instead of the files behind it (R02).
 */
function assertNoLinkedFolders(status: MemoryStatus): void {
  const [first, ...rest] = status.linkedFolders;
  if (!first) return;
  const what =
    first.tracked > 0
      ? `git would record it as a link and delete the ${first.tracked} tracked memory file${first.tracked === 1 ? '' : 's'} under ${first.path}/`
      : first.target.startsWith('/')
        ? `git would record it as a link and never commit the memory files behind it`
        : `git would record it as a link, and the memory files behind it lie under ${first.target}/, which is not a memory folder, so no checkpoint commits them`;
  throw new MemoryError(
    'git.linked-folder',
    `${first.path} is a symbolic link to ${first.target}: ${what}; nothing committed${rest.length ? ` (and ${rest.length} more linked folder${rest.length === 1 ? '' : 's'})` : ''}`,
    {
      data: { folders: status.linkedFolders.map((l) => ({ ...l })) },
      hint: linkedFolderFix(first),
    },
  );
}

/** The fix for a linked memory folder: put the real folder back at the memory path. */
export function linkedFolderFix(l: { path: string; target: string }): string {
  return l.target.startsWith('/')
    ? `replace the link by the folder itself: rm ${l.path} && cp -R ${l.target} ${l.path}, then checkpoint`
    : `put the folder back at ${l.path}: rm ${l.path} && mv ${l.target} ${l.path}, then checkpoint (git commits the files, never what a link points to)`;
}

/** Seconds and isomorphic-git's timezoneOffset (minutes, JS sign convention) of `d`. */
function stamp(d: Date): { seconds: number; timezoneOffset: number } {
  return { seconds: Math.floor(d.getTime() / 1000), timezoneOffset: d.getTimezoneOffset() };
}

async function writeEmptyTree(repo: GitRepo): Promise<string> {
  return guard('git.checkpoint', () => git.writeTree({ fs: repo.fs, gitdir: repo.gitdir, tree: [] }));
}

/**
 * Apply `edits` (repo path → new blob, or null to delete) to the tree `base`, writing only the trees
 * along the edited paths. @returns the new tree oid, or undefined when it ends up empty.
 */
async function rewriteTree(
  repo: GitRepo,
  base: string | undefined,
  edits: ReadonlyMap<string, { oid: string; mode: string } | null>,
): Promise<string | undefined> {
  const entries = new Map<string, { mode: string; path: string; oid: string; type: 'blob' | 'tree' | 'commit' }>();
  if (base) {
    const { tree } = await guard('git.checkpoint', () =>
      git.readTree({ fs: repo.fs, gitdir: repo.gitdir, oid: base, cache: repo.cache }),
    );
    for (const e of tree) entries.set(e.path, e);
  }
  const sub = new Map<string, Map<string, { oid: string; mode: string } | null>>();
  for (const [path, edit] of edits) {
    const slash = path.indexOf('/');
    if (slash < 0) {
      if (edit === null) entries.delete(path);
      else entries.set(path, { mode: edit.mode, path, oid: edit.oid, type: 'blob' });
      continue;
    }
    const head = path.slice(0, slash);
    const m = sub.get(head) ?? new Map();
    m.set(path.slice(slash + 1), edit);
    sub.set(head, m);
  }
  for (const [name, childEdits] of sub) {
    const cur = entries.get(name);
    const childBase = cur?.type === 'tree' ? cur.oid : undefined;
    // A file where a folder must go (or the reverse) is replaced, as `git add` would.
    const oid = await rewriteTree(repo, childBase, childEdits);
    if (oid) entries.set(name, { mode: '040000', path: name, oid, type: 'tree' });
    else if (cur?.type === 'tree' || [...childEdits.values()].some((v) => v !== null)) entries.delete(name);
  }
  if (entries.size === 0) return undefined;
  return guard('git.checkpoint', () =>
    git.writeTree({ fs: repo.fs, gitdir: repo.gitdir, tree: [...entries.values()] }),
  );
}

const ZERO = '0'.repeat(40);

/**
 * Move the branch HEAD is on (or HEAD itself when detached) from the expected old commit to `oid`,
 * the way git does: write `<ref>.lock`, check the ref did not move, rename. Appends the reflog when
 * the repository keeps one.
 * @throws MemoryError `git.busy` when the ref is locked or moved meanwhile.
 */
async function updateHead(
  repo: GitRepo,
  head: HeadState,
  oid: string,
  reflogMessage: string,
  who: { name: string; email: string; timestamp: number; timezoneOffset: number },
): Promise<void> {
  const ref = head.kind === 'detached' ? 'HEAD' : head.ref;
  const expected = head.kind === 'unborn' ? undefined : head.oid;
  const refFile = gitPath(repo, ...ref.split('/'));
  const lock = `${refFile}.lock`;
  await fsp.mkdir(dirname(refFile), { recursive: true });
  // A lock a killed gitmem left is taken over; canonical git's is git.busy (git/lock.ts takeRefLock).
  const h = await takeRefLock(repo.gitdir, lock, oid, ref);
  try {
    await h.writeFile(`${oid}\n`);
    await h.sync();
  } finally {
    await h.close();
  }
  try {
    const now = await currentValue(repo, ref);
    if (now !== expected) {
      throw new MemoryError(
        'git.busy',
        `${ref} moved during the checkpoint (expected ${expected ?? 'no commit'}, found ${now ?? 'none'})`,
        {
          data: { ref, expected: expected ?? null, found: now ?? null },
          hint: 'retry the checkpoint',
        },
      );
    }
    await fsp.rename(lock, refFile);
  } catch (e) {
    await fsp.rm(lock, { force: true });
    throw e;
  } finally {
    await releaseRefLock(repo.gitdir);
  }
  await appendReflog(repo, ref, expected ?? ZERO, oid, reflogMessage, who);
}

async function currentValue(repo: GitRepo, ref: string): Promise<string | undefined> {
  if (ref === 'HEAD') {
    const t = (await fsp.readFile(join(repo.gitdir, 'HEAD'), 'utf8')).trim();
    return /^[0-9a-f]{40}$/.test(t) ? t : undefined;
  }
  try {
    return await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref });
  } catch {
    return undefined;
  }
}

async function appendReflog(
  repo: GitRepo,
  ref: string,
  from: string,
  to: string,
  message: string,
  who: { name: string; email: string; timestamp: number; timezoneOffset: number },
): Promise<void> {
  try {
    await fsp.access(join(repo.commondir ?? repo.gitdir, 'logs'));
  } catch {
    return; // this repository keeps no reflogs
  }
  const off = -who.timezoneOffset;
  const tz = `${off < 0 ? '-' : '+'}${String(Math.floor(Math.abs(off) / 60)).padStart(2, '0')}${String(Math.abs(off) % 60).padStart(2, '0')}`;
  const line = `${from} ${to} ${who.name} <${who.email}> ${who.timestamp} ${tz}\t${message.replace(/\n/g, ' ')}\n`;
  const targets = ref === 'HEAD' ? ['HEAD'] : [ref, 'HEAD'];
  for (const r of targets) {
    const file = gitPath(repo, 'logs', ...r.split('/'));
    try {
      await fsp.mkdir(dirname(file), { recursive: true });
      await fsp.appendFile(file, line);
    } catch {
      /* a reflog is a convenience; the commit stands without it */
    }
  }
}

/**
 * Point the index entries of the checkpointed paths at the committed blobs (removing deleted ones),
 * leaving every other entry — the user's staged work — exactly as it was. The stat recorded is the
 * one taken before the content was read, so a write after that makes git re-hash the file.
 */
async function syncIndex(repo: GitRepo, status: MemoryStatus, repoPaths: readonly string[]): Promise<void> {
  // Imported here, not at the top: isomorphic-git loads on first use (see loadGit in repo.ts).
  const [{ GitIndexManager }, { FileSystem }] = await Promise.all([
    import('isomorphic-git/managers'),
    import('isomorphic-git/models'),
  ]);
  const fs = new FileSystem(repo.fs);
  await guard('git.checkpoint', () =>
    GitIndexManager.acquire({ fs, gitdir: repo.gitdir, cache: {} }, async (index) => {
      for (const p of repoPaths) {
        const f = status.work.get(p);
        if (!f) {
          if (index.has({ filepath: p })) index.delete({ filepath: p });
          continue;
        }
        index.insert({ filepath: p, oid: f.oid, stats: f.stat });
      }
    }),
  );
}
