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
import { gitVersion, runGit } from '../../git/system-git.js';
import { gitContext } from '../../engine/load/git-context.js';
import { adoptRemoteBranch } from './adopt-remote.js';
import { checkpointMemory, type GitLocation } from './checkpoint.js';
import { diffMemory, type MemoryDiffReport } from './diff.js';
import { checkIncoming, checksIncoming, type IncomingFinding } from './incoming-checks.js';
import { recordIncoming } from '../trust/review-marks.js';
import { syncConflictError, type ConflictContext } from './sync-conflicts.js';
import { findDuplicateByMeaning } from '../shared/dedupe-policy.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { upstreamOf } from './sync-rounds.js';
import { commitsBetween, syncRounds } from './sync-loop.js';
import type { SyncCommit, SyncInput, SyncOptions, SyncReport } from './sync-types.js';

export type { SyncCommit, SyncInput, SyncOptions, SyncReport } from './sync-types.js';

/** Lowest git with `merge-tree --write-tree`. */
const MIN_GIT: [number, number] = [2, 38];

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
