// Branch switches for long-lived hosts (watch, language server): when HEAD has moved to another
// commit since the last watcher batch, the memory files that differ between the two commits' trees
// (read from git objects, not inferred from file events) are re-indexed together with the batch in
// one update, so recall goes from the old branch's state to the new one in a single snapshot swap.
// Files git did not change keep their index entries; the event storm of a checkout is covered by
// the tree diff even when the watcher coalesced or missed some of it. deps: core, git, engine (git-context, load).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { RelPath } from '../../core/paths.js';
import type { FileChangeBatch } from '../../core/ports.js';
import { diffTrees } from '../../git/history.js';
import { git, readHead } from '../../git/repo.js';
import { gitContext, type GitContext } from '../load/git-context.js';
import type { LoadedConfig } from '../load/load.js';

/** A HEAD move and the memory files it changed (workspace-relative). */
export interface HeadMove {
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly batch: FileChangeBatch;
}

/** @returns the work tree of `gitdir`: the parent of a `.git` folder, or what a linked worktree's `gitdir` file names. */
function workTreeOf(gitdir: string): string {
  try {
    const dotgit = readFileSync(join(gitdir, 'gitdir'), 'utf8').trim();
    if (dotgit) return dirname(dotgit);
  } catch {
    /* a main git dir */
  }
  return dirname(gitdir);
}

/** Follows HEAD for one workspace; {@link moved} reports each move once. */
export class HeadTracker {
  readonly #ctx: GitContext;
  #last: string | undefined;
  #started = false;

  /** @throws MemoryError `git.not-a-repository` when `root` is not inside the work tree of `gitdir`. */
  constructor(root: string, loaded: LoadedConfig, gitdir: string) {
    this.#ctx = gitContext({ root, loaded } as never, { gitdir, workTree: workTreeOf(gitdir) });
  }

  async #head(): Promise<string | undefined> {
    const h = await readHead(this.#ctx.repo);
    return h.kind === 'unborn' ? undefined : h.oid;
  }

  /** Record the current HEAD (call when watching starts). */
  async start(): Promise<void> {
    this.#last = await this.#head();
    this.#started = true;
  }

  /** @returns the move since the last call (or since {@link start}), or undefined when HEAD stayed. */
  async moved(): Promise<HeadMove | undefined> {
    if (!this.#started) await this.start();
    const now = await this.#head();
    if (now === this.#last) return undefined;
    const from = this.#last;
    const tree = async (oid: string | undefined) =>
      oid
        ? (
            await git.readCommit({
              fs: this.#ctx.repo.fs,
              gitdir: this.#ctx.repo.gitdir,
              oid,
              cache: this.#ctx.repo.cache,
            })
          ).commit.tree
        : undefined;
    const changes = await diffTrees(this.#ctx.repo, await tree(from), await tree(now), this.#ctx.scope);
    this.#last = now;
    const pick = (c: 'added' | 'modified' | 'deleted') =>
      changes.filter((x) => x.change === c).map((x) => x.path as RelPath);
    return { from, to: now, batch: { created: pick('added'), changed: pick('modified'), deleted: pick('deleted') } };
  }
}

/**
 * The batch to apply: the watcher's batch plus the files git changed between the two commits.
 * A path git changed is read from the work tree like any other (a deleted one is re-checked there,
 * since uncommitted edits can survive a switch).
 */
export function withHeadMove(batch: FileChangeBatch, move: HeadMove | undefined): FileChangeBatch {
  if (!move) return batch;
  const created = new Set<RelPath>([...batch.created, ...move.batch.created]);
  const changed = new Set<RelPath>([...batch.changed, ...move.batch.changed]);
  const deleted = new Set<RelPath>([...batch.deleted, ...move.batch.deleted]);
  for (const p of created) changed.delete(p);
  return { created: [...created].sort(), changed: [...changed].sort(), deleted: [...deleted].sort() };
}
