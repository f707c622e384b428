// Line blame over the commit graph, merges included: each line of a file's current text goes to the
// commit that introduced it, as `git blame` decides it. A commit hands a line to a parent that holds
// it (every line to a parent with the identical blob, else the lines each parent's line diff keeps);
// the lines no parent holds are that commit's own. Newest commit first, so a line reached along two
// paths is blamed once. A merge is therefore never blamed for lines it took unchanged from either
// side (R170: a linear walk of the file's log blamed a sync merge for the other clone's lines).
// deps: core (line-diff), isomorphic-git (via repo.ts).
import { diffLineOps, splitLines } from '../core/line-diff.js';
import type { GitRepo } from './repo.js';
import { git } from './repo.js';

/** The commit that introduced a line. `date` is its author date, ISO-8601 (UTC); `time` its committer time, seconds since the epoch. */
export interface BlameCommit {
  readonly commit: string;
  readonly author: string;
  readonly date: string;
  readonly time: number;
}

/** Most commits visited, and most line diffs made (versions of the file compared); lines still
 * unassigned past either go to the commit they were found in, the oldest seen on their path. */
const MAX_COMMITS = 5000;
const MAX_DIFFS = 200;

interface Node {
  readonly oid: string;
  readonly time: number;
  readonly author: string;
  readonly date: string;
  readonly parents: readonly string[];
  readonly blob: string;
  /** The blob's lines, read when a line diff first needs them. */
  lines?: readonly string[];
  /** current-text line → its index in this commit's version of the file. */
  readonly pending: Map<number, number>;
}

/** Pairs (newer line index → older line index) of the lines a line diff keeps; undefined past its bound. */
export function keptLines(newer: readonly string[], older: readonly string[]): Map<number, number> | undefined {
  const ops = diffLineOps(newer, older);
  if (!ops) return undefined;
  const out = new Map<number, number>();
  let a = 0;
  let b = 0;
  for (const op of ops) {
    if (op.t === ' ') out.set(a++, b++);
    else if (op.t === '-') a++;
    else b++;
  }
  return out;
}

/** The commit `oid` with the blob id of its version of `filepath`; undefined when it has none (or it is unreadable). */
async function readNode(repo: GitRepo, oid: string, filepath: string): Promise<Node | undefined> {
  try {
    const { commit } = await git.readCommit({ fs: repo.fs, gitdir: repo.gitdir, oid, cache: repo.cache });
    // The blob id from its folder's tree: a commit that did not change the file costs no blob read.
    const slash = filepath.lastIndexOf('/');
    const { tree } = await git.readTree({
      fs: repo.fs,
      gitdir: repo.gitdir,
      oid: commit.tree,
      ...(slash >= 0 ? { filepath: filepath.slice(0, slash) } : {}),
      cache: repo.cache,
    });
    const entry = tree.find((e) => e.path === filepath.slice(slash + 1) && e.type === 'blob');
    if (!entry) return undefined;
    return {
      oid,
      time: commit.committer.timestamp,
      author: commit.author.name,
      date: new Date(commit.author.timestamp * 1000).toISOString(),
      parents: commit.parent,
      blob: entry.oid,
      pending: new Map(),
    };
  } catch {
    return undefined; // no such folder in that commit, or the commit is missing (a shallow clone)
  }
}

async function linesOf(repo: GitRepo, n: Node): Promise<readonly string[]> {
  if (!n.lines) {
    const { blob } = await git.readBlob({ fs: repo.fs, gitdir: repo.gitdir, oid: n.blob, cache: repo.cache });
    n.lines = splitLines(new TextDecoder().decode(blob).replace(/\r\n?/g, '\n'));
  }
  return n.lines;
}

/**
 * Hand `n`'s pending lines to the parents that hold them (see the module comment).
 * @returns the number of line diffs made.
 */
async function handOver(repo: GitRepo, n: Node, parents: readonly Node[]): Promise<number> {
  const same = parents.find((p) => p.blob === n.blob);
  if (same) {
    for (const [c, v] of n.pending) if (!same.pending.has(c)) same.pending.set(c, v);
    n.pending.clear();
    return 0;
  }
  let diffs = 0;
  for (const p of parents) {
    if (n.pending.size === 0) break;
    diffs++;
    const kept = keptLines(await linesOf(repo, n), await linesOf(repo, p));
    if (!kept) continue;
    for (const [c, v] of [...n.pending]) {
      const w = kept.get(v);
      if (w === undefined) continue;
      if (!p.pending.has(c)) p.pending.set(c, w);
      n.pending.delete(c);
    }
  }
  return diffs;
}

/**
 * Blame the lines `pending` (current-text line → line index in HEAD's version) of `filepath` starting
 * at commit `head`. @returns current-text line → the commit that introduced it (lines not in the map
 * were not in HEAD's version).
 */
export async function blameLines(
  repo: GitRepo,
  head: string,
  filepath: string,
  start: (headLines: readonly string[]) => Map<number, number>,
): Promise<Map<number, BlameCommit>> {
  const out = new Map<number, BlameCommit>();
  const first = await readNode(repo, head, filepath);
  if (!first) return out;
  for (const [c, v] of start(await linesOf(repo, first))) first.pending.set(c, v);
  const nodes = new Map<string, Node>([[head, first]]);
  const queue: Node[] = [first];
  let visited = 0;
  let diffs = 0;
  const blame = (n: Node) => {
    const who = { commit: n.oid, author: n.author, date: n.date, time: n.time };
    for (const c of n.pending.keys()) out.set(c, who);
    n.pending.clear();
  };
  while (queue.length > 0) {
    queue.sort((x, y) => y.time - x.time);
    const n = queue.shift()!;
    if (n.pending.size === 0) continue;
    if (++visited > MAX_COMMITS || diffs >= MAX_DIFFS) {
      blame(n);
      continue;
    }
    const parents: Node[] = [];
    for (const p of n.parents) {
      let node = nodes.get(p);
      if (!node) {
        node = await readNode(repo, p, filepath);
        if (node) nodes.set(p, node);
      }
      if (node) parents.push(node);
    }
    diffs += await handOver(repo, n, parents);
    blame(n);
    nodes.delete(n.oid); // its children are done (newest first): only its parents' texts are needed now
    for (const p of parents) if (p.pending.size > 0 && !queue.includes(p)) queue.push(p);
  }
  return out;
}
