// `gitmem sync`: checkpoint the local memory → fetch → merge (or rebase) only when the user's own
// uncommitted work allows it → re-index what changed → push, stopping with a clear error at the first
// problem and changing nothing that is not already safe in a commit. Fetch, merge and push run the
// system git (execFile): merge drivers, union merges, ssh/local remotes and linked worktrees are real
// git behaviour isomorphic-git does not have (docs/ARCHITECTURE.md). The merge is computed with
// `git merge-tree --write-tree` (no work tree or index touched), committed with `git commit-tree`,
// and only then applied as a fast-forward, which git refuses when it would overwrite a dirty file.
// A conflict's error and hint: sync-conflicts.ts. deps: core, git, service (git-ops, memory).
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { MemoryError } from '../../core/errors.js';
import { classify } from '../../core/layout.js';
import { attributeRules, DRIVER_NAME, mergeDriverStatus } from '../../git/attributes.js';
import { resolveIdentity } from '../../git/identity.js';
import { readHead } from '../../git/repo.js';
import { orderMergedDailyNotes } from '../../git/merge-daily.js';
import { gitOut, gitReason, gitVersion, runGit } from '../../git/system-git.js';
import { gitContext } from '../../engine/load/git-context.js';
import { adoptRemoteBranch } from './adopt-remote.js';
import { checkpointMemory, type GitLocation } from './checkpoint.js';
import { diffMemory, type MemoryDiffReport } from './diff.js';
import { checkIncoming, checksIncoming, type IncomingFinding } from './incoming-checks.js';
import { recordIncoming } from '../trust/review-marks.js';
import { syncConflictError, type ConflictContext } from './sync-conflicts.js';
import { findDuplicateByMeaning } from '../shared/dedupe-policy.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { DEFAULT_ATTEMPTS, fetchTracking, pause, retryDelayMs, sidesOf, upstreamOf } from './sync-rounds.js';
import type { SyncCommit, SyncInput, SyncOptions, SyncReport } from './sync-types.js';

export type { SyncCommit, SyncInput, SyncOptions, SyncReport } from './sync-types.js';

/** Lowest git with `merge-tree --write-tree`. */
const MIN_GIT: [number, number] = [2, 38];

async function commitsBetween(cwd: string, ...revs: string[]): Promise<SyncCommit[]> {
  const out = await gitOut(cwd, ['log', '--reverse', '--format=%H%x09%s', ...revs]);
  return out ? out.split('\n').map((l) => ({ oid: l.slice(0, 40), summary: l.slice(41) })) : [];
}

/** Tracked files with uncommitted changes (staged or not) and untracked files, as repo paths. */
async function dirtyPaths(cwd: string): Promise<Set<string>> {
  const out = (await runGit(cwd, ['status', '--porcelain=v1', '-z', '--untracked-files=all'])).stdout;
  const set = new Set<string>();
  const parts = out.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.length < 4) continue;
    set.add(p.slice(3));
    if (p[0] === 'R' || p[0] === 'C') set.add(parts[++i] ?? '');
  }
  set.delete('');
  return set;
}

async function changedPaths(cwd: string, a: string, b: string): Promise<string[]> {
  const out = await gitOut(cwd, ['diff', '--name-only', '-z', '--no-renames', a, b]);
  return out.split('\0').filter(Boolean);
}

/** Stop before touching anything when the update would change a file the user has not committed. */
async function assertUpdateAllowed(cwd: string, from: string, to: string): Promise<void> {
  const dirty = await dirtyPaths(cwd);
  if (dirty.size === 0) return;
  const touched = (await changedPaths(cwd, from, to)).filter((p) => dirty.has(p));
  if (touched.length) {
    throw new MemoryError(
      'git.dirty',
      `sync stopped: the incoming changes touch ${touched.length} file(s) with uncommitted changes: ${touched.slice(0, 5).join(', ')}`,
      {
        data: { files: touched },
        hint: 'commit or stash those files (memory is already checkpointed), then run gitmem sync again',
      },
    );
  }
}

/** The checkpoint's commit id, or undefined when the sync made none. */
function checkpointOid(c: { readonly oid: string } | null): string | undefined {
  return c ? c.oid : undefined;
}

/** Environment giving git commits the same author gitmem checkpoints use (so a missing identity never fails). */
async function identityEnv(
  memory: Pick<MemoryContext, 'root' | 'loaded'>,
  where: GitLocation,
): Promise<Record<string, string>> {
  const { repo } = gitContext(memory, where);
  const id = await resolveIdentity(repo, undefined);
  return {
    GIT_AUTHOR_NAME: id.name,
    GIT_AUTHOR_EMAIL: id.email,
    GIT_COMMITTER_NAME: process.env.GIT_COMMITTER_NAME ?? id.name,
    GIT_COMMITTER_EMAIL: process.env.GIT_COMMITTER_EMAIL ?? id.email,
  };
}

/** @returns whether a path from the work tree's top is a daily note of `memory`'s layout. */
function dailyNoteAt(memory: Pick<MemoryContext, 'root' | 'loaded'>, workTree: string): (path: string) => boolean {
  const prefix = workspacePrefix(workTree, memory.root);
  return (path) => {
    if (prefix && !path.startsWith(`${prefix}/`)) return false;
    return classify(prefix ? path.slice(prefix.length + 1) : path, memory.loaded.layout) === 'daily';
  };
}

/** The workspace folder relative to the work tree, '' at its root (or when it cannot be told). */
function workspacePrefix(workTree: string, root: string): string {
  const rel = relative(workTree, root).split(sep).join('/');
  return rel.startsWith('..') ? '' : rel;
}

function inProgress(gitdir: string): string | undefined {
  for (const f of ['MERGE_HEAD', 'rebase-merge', 'rebase-apply', 'CHERRY_PICK_HEAD', 'REVERT_HEAD'])
    if (existsSync(join(gitdir, f))) return f;
  return undefined;
}

/** The index run after the merge, and what it did (SyncReport.reindexed). */
async function reindex(
  index: SyncInput['index'],
  onProgress: SyncOptions['onIndexProgress'],
): Promise<NonNullable<SyncReport['reindexed']>> {
  const t0 = performance.now();
  const r = await index(onProgress ? { onProgress } : {});
  return {
    upserted: r.updated?.upserted ?? 0,
    removed: r.updated?.removed ?? 0,
    ms: Math.round(performance.now() - t0),
    first: /^index missing/.test(r.reason ?? ''),
    files: r.files,
    embedded: r.vectors.embedded,
  };
}

/**
 * Bring the memory in from the remote and send it back (see the file comment for the order).
 * @throws MemoryError `git.not-a-repository`, `git.unavailable`, `git.no-remote`, `git.merge-in-progress`,
 *   `git.secrets-found` (from the checkpoint), `git.dirty`, `git.conflict` (with `data.files`),
 *   `git.push-rejected`, `git.failed` (fetch/push errors, git too old).
 */
export async function syncMemory(ctx: MemoryContext, input: SyncInput): Promise<SyncReport> {
  const { git: where, index, ...options } = input;
  const memory = ctx;
  const { repo } = gitContext(memory, where);
  const cwd = repo.dir;
  const marker = inProgress(repo.gitdir);
  if (marker) {
    throw new MemoryError(
      'git.merge-in-progress',
      `a git operation is in progress (${marker}); sync changes nothing until it is finished`,
      {
        hint: 'finish or abort it (git merge --abort / git rebase --abort), then run gitmem sync again',
      },
    );
  }
  const head = await readHead(repo);
  if (head.kind === 'detached') {
    throw new MemoryError('git.failed', 'HEAD is detached; sync works on a branch', {
      hint: 'git switch <branch>, then gitmem sync',
    });
  }
  const branch = head.ref.replace(/^refs\/heads\//, '');
  const { remote, remoteBranch } = await upstreamOf(cwd, branch, options);
  const env = await identityEnv(memory, where);
  const tracking = `refs/remotes/${remote}/${remoteBranch}`;
  // 0. A clone made before the remote's first push adopts the remote's branch, as git pull does (R52).
  const adopted =
    head.kind === 'unborn'
      ? await adoptRemoteBranch(cwd, { remote, remoteBranch, branchRef: head.ref, tracking }, env)
      : undefined;

  // 1. Checkpoint: the local memory is safe in a commit before anything else happens.
  const cp = await checkpointMemory(ctx, { git: where, reason: 'gitmem sync' });
  const checkpoint =
    cp.kind === 'committed'
      ? { oid: cp.oid, files: cp.changes.added.length + cp.changes.modified.length + cp.changes.deleted.length }
      : null;
  const start = (await readHead(repo)) as { kind: string; oid?: string };
  const startOid = start.kind === 'branch' ? start.oid! : undefined;

  const commitsIn: SyncCommit[] = adopted ? await commitsBetween(cwd, adopted.oid) : [];
  const rounds = await syncRounds(
    { cwd, remote, remoteBranch, branch, tracking, env, ...(startOid ? { head: startOid } : {}) },
    commitsIn,
    options,
    (ours, theirs) =>
      mergeCommit(
        cwd,
        { ours, theirs },
        `memory: sync merge ${remote}/${remoteBranch} into ${branch}`,
        env,
        dailyNoteAt(memory, cwd),
        {
          rules: attributeRules(memory.loaded.layout),
          prefix: workspacePrefix(cwd, memory.root),
          cliScript: options.cliScript,
          upstream: `${remote}/${remoteBranch}`,
          env,
          checkpoint: checkpointOid(checkpoint),
        },
      ),
  );
  const { pushed, lastTheirs, sentToNewBranch, endOid } = rounds;
  const strategy = adopted && rounds.strategy === 'up-to-date' ? 'fast-forward' : rounds.strategy;
  const attempt = rounds.attempts;
  const commitsOut =
    pushed && endOid
      ? (sentToNewBranch ?? (await commitsBetween(cwd, lastTheirs ? `${lastTheirs}..${endOid}` : endOid)))
      : [];
  let memoryDiff: MemoryDiffReport | null = null;
  let reindexed: SyncReport['reindexed'] = null;
  let incomingFindings: IncomingFinding[] = [];
  if (commitsIn.length > 0 && startOid && endOid && startOid !== endOid) {
    memoryDiff = await diffMemory(ctx, { git: where, from: startOid, to: endOid });
    // Commits that changed no memory file (code only) leave the index as it is.
    if (memoryDiff.changes.length > 0) reindexed = await reindex(index, options.onIndexProgress);
    // The checks read every entry of the workspace: only when an incoming entry is new or rewritten.
    if (checksIncoming(memoryDiff.changes)) {
      const ws = await memory.workspace();
      incomingFindings = await checkIncoming(
        ws,
        memoryDiff.changes,
        memory.config.dedupe.jaccard,
        (incoming, exclude) => findDuplicateByMeaning(ctx, ws, incoming, exclude),
      );
    }
    // Their lines are `incoming` until a person approves them here (service/trust/review-marks.ts).
    await recordIncoming(
      memory.storage,
      commitsIn.map((c) => c.oid),
      memoryDiff.changes.filter((c) => c.change !== 'removed').map((c) => c.path),
    ).catch((e: unknown) => ctx.logger.warn(`incoming commits not recorded: ${(e as Error).message}`));
  } else if (adopted) {
    // Every file came in: index them, and mark them incoming until reviewed, as a merge's would be.
    reindexed = await reindex(index, options.onIndexProgress);
    const prefix = workspacePrefix(cwd, memory.root).replace(/.$/, '$&/');
    const paths = adopted.paths
      .filter((p) => p.startsWith(prefix))
      .map((p) => p.slice(prefix.length))
      .filter((p) => classify(p, memory.loaded.layout) !== undefined);
    await recordIncoming(
      memory.storage,
      commitsIn.map((c) => c.oid),
      paths,
    ).catch((e: unknown) => ctx.logger.warn(`incoming commits not recorded: ${(e as Error).message}`));
  }
  return {
    remote,
    branch,
    remoteBranch,
    checkpoint,
    ignored: cp.ignored,
    binary: cp.binary,
    oversized: cp.oversized,
    commitsIn,
    commitsOut,
    strategy,
    memoryDiff,
    reindexed,
    incomingFindings,
    pushed,
    attempts: attempt,
  };
}

/** Where the rounds run: the repository, the remote branch and its tracking ref, HEAD's commit now. */
interface RoundsAt {
  readonly cwd: string;
  readonly remote: string;
  readonly remoteBranch: string;
  readonly branch: string;
  readonly tracking: string;
  readonly env: Record<string, string>;
  /** HEAD's commit after the checkpoint (undefined on a branch with no commit yet). */
  readonly head?: string;
}

/** What the rounds did (SyncReport's fields of the same names). */
interface RoundsResult {
  readonly strategy: SyncReport['strategy'];
  readonly pushed: boolean;
  readonly attempts: number;
  /** The remote branch's commit at the last fetch. */
  readonly lastTheirs: string | undefined;
  /** A push that created the remote branch: the commits no ref of that remote had before it (G12). */
  readonly sentToNewBranch: SyncCommit[] | undefined;
  /** HEAD's commit at the end. */
  readonly endOid: string | undefined;
}

/**
 * Fetch → merge (or fast-forward, or rebase) → push, again after a wait (sync-rounds.ts retryDelayMs)
 * when another clone's push won the race, up to `options.attempts` rounds. HEAD's commit is carried
 * from step to step (this function moves it) instead of asked of git each time. Pushes `commitsIn`.
 * @throws MemoryError `git.push-rejected` after the last round, or at once when the remote refuses
 *   the branch for another reason (a hook, a protected branch); `git.failed`, `git.dirty`, `git.conflict`.
 */
async function syncRounds(
  at: RoundsAt,
  commitsIn: SyncCommit[],
  options: SyncOptions,
  merge: (ours: string, theirs: string) => Promise<string>,
): Promise<RoundsResult> {
  const { cwd, remote, remoteBranch, tracking, env } = at;
  const maxAttempts = Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS);
  let strategy: SyncReport['strategy'] = 'up-to-date';
  let head = at.head;
  for (let attempt = 1; ; attempt++) {
    // 2. Fetch.
    const theirs = await fetchTracking(cwd, at, env);
    const ours = head;
    let ahead = ours !== undefined && theirs === undefined;
    // 3. Merge or rebase.
    if (theirs && ours && theirs !== ours) {
      const { incoming, outgoing } = await sidesOf(cwd, ours, theirs);
      commitsIn.push(...incoming.filter((c) => !commitsIn.some((x) => x.oid === c.oid)));
      ahead = outgoing > 0;
      if (incoming.length > 0 && outgoing === 0) {
        await assertUpdateAllowed(cwd, ours, theirs);
        await fastForward(cwd, theirs, env);
        head = theirs;
        strategy = strategy === 'up-to-date' ? 'fast-forward' : strategy;
      } else if (incoming.length > 0 && options.rebase) {
        await rebaseOnto(cwd, theirs, env);
        head = (await gitOut(cwd, ['rev-parse', '--verify', 'HEAD'])) || undefined;
        ahead = head !== theirs;
        strategy = 'rebase';
      } else if (incoming.length > 0) {
        const merged = await merge(ours, theirs);
        await assertUpdateAllowed(cwd, ours, merged);
        await fastForward(cwd, merged, env);
        head = merged;
        strategy = 'merge';
      }
    } else if (!theirs && ours) strategy = 'push-only';
    // 4. Push (when there is something the remote lacks).
    const done = { strategy, attempts: attempt, lastTheirs: theirs, endOid: head };
    if (options.noPush || !ahead || !head) return { ...done, pushed: false, sentToNewBranch: undefined };
    // Read before the push: git's push moves the remote-tracking ref of a branch it creates.
    const unsent = theirs ? undefined : await commitsBetween(cwd, head, '--not', `--remotes=${remote}`);
    const p = await runGit(cwd, ['push', '--quiet', '--porcelain', remote, `HEAD:refs/heads/${remoteBranch}`], { env });
    if (p.code === 0) {
      await runGit(cwd, ['update-ref', tracking, head]);
      return { ...done, pushed: true, sentToNewBranch: unsent };
    }
    pushRefused(p, { remote, remoteBranch, attempt, last: attempt >= maxAttempts });
    await pause(retryDelayMs(attempt, Math.random()));
  }
}

/**
 * Judge a failed push. Returns when the remote moved (or another push held its ref lock) and a
 * round is left: fetch, merge and try again. A hook or a protected branch refusing the push will
 * refuse it again: stop at once.
 * @throws MemoryError `git.failed` (not a rejection), `git.push-rejected`.
 */
function pushRefused(
  p: { readonly stdout: string; readonly stderr: string },
  at: { readonly remote: string; readonly remoteBranch: string; readonly attempt: number; readonly last: boolean },
): void {
  const { remote, remoteBranch, attempt } = at;
  const said = `${p.stdout}\n${p.stderr}`;
  const rejected = /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\]/i.test(said);
  if (!rejected)
    throw new MemoryError('git.failed', `push to ${remote} failed: ${gitReason(p.stderr)}`, {
      data: { remote },
    });
  const moved = /non-fast-forward|fetch first|cannot lock ref|failed to update ref|stale info/i.test(said);
  if (moved && !at.last) return;
  throw new MemoryError(
    'git.push-rejected',
    `the push to ${remote}/${remoteBranch} was rejected${attempt > 1 ? ` ${attempt} times` : ''}: ${(p.stdout + p.stderr).trim().split('\n').slice(-2).join(' | ')}`,
    {
      data: { remote, branch: remoteBranch, attempts: attempt },
      hint: 'your memory is committed locally; run gitmem sync again (the remote moved meanwhile, or refuses this branch)',
    },
  );
}

async function fastForward(cwd: string, to: string, env: Record<string, string>): Promise<void> {
  const r = await runGit(cwd, ['merge', '--ff-only', '--quiet', to], { env });
  if (r.code !== 0) {
    throw new MemoryError(
      'git.dirty',
      `sync stopped: git refused to update the work tree: ${r.stderr.trim().split('\n').slice(0, 3).join(' | ')}`,
      {
        hint: 'commit or stash the files git names (memory is already checkpointed), then run gitmem sync again',
      },
    );
  }
}

/**
 * @returns true when a conflicted file has no gitmem merge rule in `.gitattributes` (`merge` unset),
 *   or its rule names the gitmem driver and this clone has not registered it (git then merges as text).
 */
async function mergeRulesMissing(cwd: string, files: readonly string[]): Promise<boolean> {
  if (!files.length) return false;
  const attrs = await runGit(cwd, ['check-attr', 'merge', '--', ...files]);
  if (attrs.code !== 0) return false;
  const values = attrs.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(l.lastIndexOf(': ') + 2));
  if (values.some((v) => v === 'unspecified')) return true;
  return values.includes(DRIVER_NAME) && !(await mergeDriverStatus(cwd).catch(() => ({ registered: true }))).registered;
}

/** Compute the merge without touching the work tree; @returns the merge commit. @throws `git.conflict`. */
async function mergeCommit(
  cwd: string,
  /** The two commits merged: ours first (its tree's order of union-merged lines), then theirs. */
  { ours, theirs }: { readonly ours: string; readonly theirs: string },
  message: string,
  env: Record<string, string>,
  isDaily: (path: string) => boolean,
  conflicts: ConflictContext,
): Promise<string> {
  const r = await runGit(cwd, ['merge-tree', '--write-tree', '--name-only', '--no-messages', ours, theirs], { env });
  const lines = r.stdout.split('\n').filter(Boolean);
  if (r.code === 129) await assertMergeTreeWrites(cwd);
  if (r.code === 1) {
    const files = [...new Set(lines.slice(1))];
    throw await syncConflictError(cwd, ours, theirs, files, await mergeRulesMissing(cwd, files), conflicts);
  }
  if (r.code !== 0 || !lines[0]) throw new MemoryError('git.failed', `git merge-tree failed: ${r.stderr.trim()}`);
  // Daily notes both sides appended to were union-merged (ours, then theirs): put them in time order (R34).
  const { tree } = await orderMergedDailyNotes(cwd, ours, theirs, lines[0], isDaily);
  // The identity env is needed here too: with no user.name/user.email configured, git refuses to commit.
  const c = await runGit(cwd, ['commit-tree', tree, '-p', ours, '-p', theirs, '-m', message], { env });
  if (c.code !== 0 || !c.stdout.trim())
    throw new MemoryError('git.failed', `git commit-tree failed: ${c.stderr.trim().split('\n').slice(-3).join(' | ')}`);
  return c.stdout.trim();
}

/**
 * `git merge-tree` said how to use it (exit 129): a git older than `merge-tree --write-tree`. Asked
 * only then, so a sync that merges nothing costs no `git --version`.
 * @throws MemoryError `git.failed` naming the version found and the one needed.
 */
async function assertMergeTreeWrites(cwd: string): Promise<void> {
  const v = await gitVersion(cwd);
  if (v && (v[0] < MIN_GIT[0] || (v[0] === MIN_GIT[0] && v[1] < MIN_GIT[1]))) {
    throw new MemoryError('git.failed', `gitmem sync needs git ${MIN_GIT.join('.')} or later (found ${v.join('.')})`, {
      hint: 'upgrade git',
    });
  }
}

async function rebaseOnto(cwd: string, theirs: string, env: Record<string, string>): Promise<void> {
  const tracked = (await runGit(cwd, ['status', '--porcelain', '--untracked-files=no'])).stdout.trim();
  if (tracked) {
    throw new MemoryError('git.dirty', 'sync --rebase stopped: tracked files have uncommitted changes', {
      hint: 'commit or stash them (memory is already checkpointed), or sync without --rebase (a merge leaves them alone)',
    });
  }
  const r = await runGit(cwd, ['rebase', '--quiet', theirs], { env });
  if (r.code !== 0) {
    await runGit(cwd, ['rebase', '--abort'], { env });
    throw new MemoryError(
      'git.conflict',
      `sync --rebase stopped: a local commit conflicts with the remote; the rebase was aborted and nothing changed`,
      {
        data: { detail: r.stdout.trim().split('\n').slice(-3) },
        hint: 'run gitmem sync without --rebase (merge), or rebase by hand',
      },
    );
  }
}
