// The git reads of one `gitmem sync` round (remote-sync.ts runs the rounds), each in as few git
// processes as it takes, and the wait between rounds when a push lost a race. Every git process
// costs a fork of the node process and a git start (a few ms of CPU each, and far more wall time on
// a loaded machine where twenty clones sync at once), so: the remotes and the branch's upstream come
// from one `git config` call (where `git remote` and two `git config --get` took three), and the
// commits each side lacks from one `git log --left-right` (where a log and a rev-list took two).
// A push rejected because another clone's push moved the remote (or held its ref lock) is retried
// after a wait that doubles each round, with random jitter, so clones that lost the same race do not
// all fetch and push again at the same instant (docs/benchmarks.md, "Twenty clones on one remote").
// deps: core (errors), git (system-git), service (sync types).
import { MemoryError } from '../../core/errors.js';
import { gitOut, gitReason, runGit } from '../../git/system-git.js';
import type { SyncCommit, SyncOptions } from './sync-types.js';

/** Fetch-merge-push rounds when the option does not say (a push lost a race: fetch, merge, push again). */
export const DEFAULT_ATTEMPTS = 6;
/** The wait after the first lost race (ms); each later round waits up to twice the one before. */
export const RETRY_BASE_MS = 100;
/** The longest wait between two rounds (ms). */
export const RETRY_CAP_MS = 2000;

/**
 * The wait before round `round + 1` after `round` rounds lost their push (ms): "equal jitter", half
 * of min(cap, base × 2^(round−1)) plus a random share of the other half, so the wait grows with
 * each lost race and clones that lost together spread out.
 * @param random a number in [0, 1) (Math.random in use; fixed in tests).
 */
export function retryDelayMs(round: number, random: number): number {
  const ceiling = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, round - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * Math.min(Math.max(random, 0), 1));
}

/** The remote and its branch that `branch` syncs with. @throws MemoryError `git.no-remote`. */
export async function upstreamOf(
  cwd: string,
  branch: string,
  options: Pick<SyncOptions, 'remote' | 'branch'>,
): Promise<{ remote: string; remoteBranch: string }> {
  const { remotes, get } = await remoteConfig(cwd);
  const remote =
    options.remote ?? get(`branch.${branch}.remote`) ?? (remotes.includes('origin') ? 'origin' : remotes[0]);
  if (!remote || !remotes.includes(remote)) {
    throw new MemoryError(
      'git.no-remote',
      remote ? `no git remote named "${remote}"` : 'this repository has no git remote to sync with',
      {
        data: { remotes },
        hint: 'add one with `git remote add origin <url>` (a bare repository on a shared disk or a server)',
      },
    );
  }
  const merge = options.branch ?? get(`branch.${branch}.merge`)?.replace(/^refs\/heads\//, '') ?? branch;
  return { remote, remoteBranch: merge };
}

/**
 * The `remote.*` and `branch.*` settings of the repository in one `git config` call: the remote names
 * (as `git remote` lists them: every `remote.<name>.<key>` section, in order) and the last value of
 * a key (as `git config --get` gives it).
 */
async function remoteConfig(cwd: string): Promise<{ remotes: string[]; get: (key: string) => string | undefined }> {
  const r = await runGit(cwd, ['config', '-z', '--get-regexp', '^(remote|branch)\\.']);
  // Exit 1: no such key at all (no remote, no upstream). Anything else is git failing to read its config.
  if (r.code !== 0 && r.code !== 1)
    throw new MemoryError('git.failed', `git config failed: ${r.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  const values = new Map<string, string>();
  const remotes: string[] = [];
  for (const rec of r.stdout.split('\0')) {
    const nl = rec.indexOf('\n');
    const key = nl < 0 ? rec : rec.slice(0, nl);
    if (!key) continue;
    values.set(key, nl < 0 ? '' : rec.slice(nl + 1));
    if (key.startsWith('remote.')) {
      const name = key.slice('remote.'.length, key.lastIndexOf('.'));
      if (name && !remotes.includes(name)) remotes.push(name);
    }
  }
  return { remotes, get: (key) => values.get(key) };
}

/**
 * Fetch the remote branch into its remote-tracking ref. @returns the ref's commit, or undefined when
 * the remote has no such branch yet.
 * @throws MemoryError `git.failed` when the fetch fails for another reason.
 */
export async function fetchTracking(
  cwd: string,
  at: { readonly remote: string; readonly remoteBranch: string; readonly tracking: string },
  env: Record<string, string>,
): Promise<string | undefined> {
  const { remote, remoteBranch, tracking } = at;
  const f = await runGit(cwd, ['fetch', '--quiet', '--no-tags', remote, `+refs/heads/${remoteBranch}:${tracking}`], {
    env,
  });
  if (f.code === 0) return gitOut(cwd, ['rev-parse', '--verify', tracking]);
  if (/couldn't find remote ref|could not find remote ref/i.test(f.stderr)) return undefined;
  throw new MemoryError('git.failed', `fetch from ${remote} failed: ${gitReason(f.stderr)}`, {
    data: { remote },
    hint: 'check the remote URL and your access (`git fetch` shows the same error); your memory is committed locally',
  });
}

/**
 * The commits only `theirs` has (oldest first) and how many only `ours` has, from one
 * `git log --left-right ours...theirs`.
 */
export async function sidesOf(
  cwd: string,
  ours: string,
  theirs: string,
): Promise<{ incoming: SyncCommit[]; outgoing: number }> {
  const out = await gitOut(cwd, ['log', '--reverse', '--left-right', '--format=%m%H%x09%s', `${ours}...${theirs}`]);
  const incoming: SyncCommit[] = [];
  let outgoing = 0;
  for (const line of out ? out.split('\n') : []) {
    if (line[0] === '<') outgoing++;
    else if (line[0] === '>') incoming.push({ oid: line.slice(1, 41), summary: line.slice(42) });
  }
  return { incoming, outgoing };
}

/** Wait `ms` milliseconds (between two rounds). */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
