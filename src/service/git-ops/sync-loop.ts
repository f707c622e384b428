// The fetch → merge → push rounds of `gitmem sync` (remote-sync.ts runs them after its checkpoint):
// each round fetches the remote branch, fast-forwards, rebases or merges (the merge commit computed
// by the caller's `merge`), and pushes; a push that lost the race to another clone's is retried after
// a wait (sync-rounds.ts). Also the work-tree checks around them (a dirty file the update would
// change stops the sync before anything moves). deps: core (errors), git (system-git), service (sync-rounds, sync-types).
import { MemoryError } from '../../core/errors.js';
import { gitOut, gitReason, runGit } from '../../git/system-git.js';
import { DEFAULT_ATTEMPTS, fetchTracking, pause, retryDelayMs, sidesOf } from './sync-rounds.js';
import type { SyncCommit, SyncOptions, SyncReport } from './sync-types.js';

export async function commitsBetween(cwd: string, ...revs: string[]): Promise<SyncCommit[]> {
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

/**
 * The work tree's dirty paths, read once a sync (the first time a round asks): after the checkpoint
 * the memory is committed, so what is dirty is the user's own, and one `git status` serves every round.
 */
function dirtyOnce(cwd: string): () => Promise<Set<string>> {
  let paths: Promise<Set<string>> | undefined;
  return () => (paths ??= dirtyPaths(cwd));
}

/** Stop before touching anything when the update would change a file the user has not committed. */
async function assertUpdateAllowed(
  cwd: string,
  from: string,
  to: string,
  dirtyNow: () => Promise<Set<string>>,
): Promise<void> {
  const dirty = await dirtyNow();
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

/** Where the rounds run: the repository, the remote branch and its tracking ref, HEAD's commit now. */
export interface RoundsAt {
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
 * when another clone's push won the race, up to `options.attempts` rounds. A merge is pushed before
 * the work tree moves to it: a round is fetch, merge-tree, commit-tree, push, so the window in which
 * another clone's push can win is as short as the merge; a round after a lost race merges on top of
 * the last round's merge, and the branch and work tree move once, to the commit sent (or, when no
 * push got through, to the last merge). The dirty files the update must not touch are read once,
 * while the first fetch runs.
 * HEAD's commit is carried from step to step instead of asked of git each time. Pushes `commitsIn`.
 * @throws MemoryError `git.push-rejected` after the last round, or at once when the remote refuses
 *   the branch for another reason (a hook, a protected branch); `git.failed`, `git.dirty` (with
 *   `data.pushed: true` when the push got through and only the work-tree update was refused), `git.conflict`.
 */
export async function syncRounds(
  at: RoundsAt,
  commitsIn: SyncCommit[],
  options: SyncOptions,
  merge: (ours: string, theirs: string) => Promise<string>,
): Promise<RoundsResult> {
  const { cwd, remote, remoteBranch, tracking, env } = at;
  const maxAttempts = Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS);
  const dirty = dirtyOnce(cwd);
  let strategy: SyncReport['strategy'] = 'up-to-date';
  /** The branch's commit, as the work tree holds it. */
  let head = at.head;
  /** The commit this sync sends: `head`, or a merge of it the work tree does not hold yet. */
  let tip = at.head;
  /** Move the branch and the work tree to `tip` (one fast-forward for every round's merge). */
  const settle = async (pushed: boolean) => {
    if (tip && tip !== head) await fastForward(cwd, tip, env, pushed);
    head = tip;
  };
  for (let attempt = 1; ; attempt++) {
    // 2. Fetch (the first round reads the dirty files meanwhile: `git status` off the race window).
    if (attempt === 1 && at.head) dirty().catch(() => undefined);
    const theirs = await fetchTracking(cwd, at, env);
    const ours = tip;
    let ahead = ours !== undefined && theirs === undefined;
    // 3. Merge or rebase (the merge only as a commit: the work tree moves after the push).
    if (theirs && ours && theirs !== ours) {
      const { incoming, outgoing } = await sidesOf(cwd, ours, theirs);
      commitsIn.push(...incoming.filter((c) => !commitsIn.some((x) => x.oid === c.oid)));
      ahead = outgoing > 0;
      if (incoming.length > 0 && outgoing === 0) {
        await assertUpdateAllowed(cwd, head ?? ours, theirs, dirty);
        tip = theirs;
        strategy = strategy === 'up-to-date' ? 'fast-forward' : strategy;
      } else if (incoming.length > 0 && options.rebase) {
        await settle(false);
        await rebaseOnto(cwd, theirs, env);
        head = tip = (await gitOut(cwd, ['rev-parse', '--verify', 'HEAD'])) || undefined;
        ahead = head !== theirs;
        strategy = 'rebase';
      } else if (incoming.length > 0) {
        const merged = await merge(ours, theirs);
        await assertUpdateAllowed(cwd, head ?? ours, merged, dirty);
        tip = merged;
        strategy = 'merge';
      }
    } else if (!theirs && ours) strategy = 'push-only';
    // 4. Push (when there is something the remote lacks).
    if (options.noPush || !ahead || !tip) {
      await settle(false);
      return {
        strategy,
        attempts: attempt,
        lastTheirs: theirs,
        endOid: head,
        pushed: false,
        sentToNewBranch: undefined,
      };
    }
    // Read before the push: git's push moves the remote-tracking ref of a branch it creates.
    const unsent = theirs ? undefined : await commitsBetween(cwd, tip, '--not', `--remotes=${remote}`);
    const p = await runGit(cwd, ['push', '--quiet', '--porcelain', remote, `${tip}:refs/heads/${remoteBranch}`], {
      env,
    });
    if (p.code === 0) {
      await runGit(cwd, ['update-ref', tracking, tip]);
      await settle(true);
      return { strategy, attempts: attempt, lastTheirs: theirs, endOid: head, pushed: true, sentToNewBranch: unsent };
    }
    const stop = pushRefused(p, { remote, remoteBranch, attempt, last: attempt >= maxAttempts });
    if (stop) {
      // The merges made so far come into the work tree, as a sync that pushed would leave it; a
      // refused update leaves the branch where it was (the merge is only a commit): nothing is lost.
      await settle(false).catch(() => undefined);
      throw stop;
    }
    await pause(retryDelayMs(attempt, Math.random()));
  }
}

/**
 * Judge a failed push. Returns undefined when the remote moved (or another push held its ref lock)
 * and a round is left: fetch, merge and try again. A hook or a protected branch refusing the push
 * will refuse it again: stop at once.
 * @returns the error to stop with: `git.failed` (not a rejection), `git.push-rejected`.
 */
function pushRefused(
  p: { readonly stdout: string; readonly stderr: string },
  at: { readonly remote: string; readonly remoteBranch: string; readonly attempt: number; readonly last: boolean },
): MemoryError | undefined {
  const { remote, remoteBranch, attempt } = at;
  const said = `${p.stdout}\n${p.stderr}`;
  const rejected = /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\]/i.test(said);
  if (!rejected)
    return new MemoryError('git.failed', `push to ${remote} failed: ${gitReason(p.stderr)}`, {
      data: { remote },
    });
  const moved = /non-fast-forward|fetch first|cannot lock ref|failed to update ref|stale info/i.test(said);
  if (moved && !at.last) return undefined;
  return new MemoryError(
    'git.push-rejected',
    `the push to ${remote}/${remoteBranch} was rejected${attempt > 1 ? ` ${attempt} times` : ''}: ${(p.stdout + p.stderr).trim().split('\n').slice(-2).join(' | ')}`,
    {
      data: { remote, branch: remoteBranch, attempts: attempt },
      hint: 'your memory is committed locally; run gitmem sync again (the remote moved meanwhile, or refuses this branch)',
    },
  );
}

/**
 * Fast-forward the branch and the work tree to `to`. `pushed`: `to` is already on the remote (the
 * error then says so, and that the work tree still lacks it).
 * @throws MemoryError `git.dirty` when git refuses (a file it would overwrite has uncommitted changes).
 */
async function fastForward(cwd: string, to: string, env: Record<string, string>, pushed = false): Promise<void> {
  const r = await runGit(cwd, ['merge', '--ff-only', '--quiet', to], { env });
  if (r.code !== 0) {
    const said = r.stderr.trim().split('\n').slice(0, 3).join(' | ');
    throw new MemoryError(
      'git.dirty',
      pushed
        ? `sync pushed ${to.slice(0, 7)}, but git refused to bring it into the work tree: ${said}`
        : `sync stopped: git refused to update the work tree: ${said}`,
      {
        data: { pushed, commit: to },
        hint: pushed
          ? `commit or stash the files git names, then run \`git merge --ff-only ${to.slice(0, 7)}\` or gitmem sync again`
          : 'commit or stash the files git names (memory is already checkpointed), then run gitmem sync again',
      },
    );
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
