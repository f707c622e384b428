// Lineage of recalled lines: which commit introduced each line of a file's current text, and the
// commit that last changed a chunk's lines, both from the one blame over the commit graph
// (git/blame.ts). deps: core, isomorphic-git (via repo.ts).
import { splitLines } from '../core/line-diff.js';
import { blameLines, keptLines, type BlameCommit } from './blame.js';
import type { GitRepo } from './repo.js';
import { readHead } from './repo.js';

/** The commit that introduced a chunk's current text. `date` is ISO-8601 (UTC). */
export interface Lineage {
  readonly commit: string;
  readonly author: string;
  readonly date: string;
}

/**
 * The lines of HEAD's version of a file that hold `needle` (its first occurrence): HEAD line index →
 * itself, as {@link blameLines} starts from; empty when HEAD's version does not hold it.
 */
function linesHolding(headLines: readonly string[], needle: string): Map<number, number> {
  const out = new Map<number, number>();
  const whole = headLines.join('\n');
  const at = needle ? whole.indexOf(needle) : -1;
  if (at < 0) return out;
  const first = countNewlines(whole, 0, at);
  const last = first + countNewlines(needle, 0, needle.length - 1);
  for (let i = first; i <= last; i++) out.set(i, i);
  return out;
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf('\n', from); i >= 0 && i < to; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The commit that last changed `text` (the chunk's lines) in `filepath` (repo-relative, POSIX): of
 * the commits that introduced its lines, blamed over the commit graph from HEAD, merges included
 * (git/blame.ts), the newest by committer time. A sync merge is therefore never the chunk's commit
 * for lines it took unchanged from either side (R190: a linear walk of the file's log stopped at the
 * merge, and the code check measured from it). @returns undefined when the text is not in HEAD's
 * version (uncommitted) or there is no history.
 */
export async function chunkLineage(repo: GitRepo, filepath: string, text: string): Promise<Lineage | undefined> {
  const head = await readHead(repo);
  if (head.kind === 'unborn') return undefined;
  const needle = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const blamed = await blameLines(repo, head.oid, filepath, (headLines) => linesHolding(headLines, needle));
  let newest: BlameCommit | undefined;
  for (const who of blamed.values()) if (!newest || who.time > newest.time) newest = who;
  return newest ? { commit: newest.commit, author: newest.author, date: newest.date } : undefined;
}

/**
 * Line-level attribution of a text (a blame along the file's history as isomorphic-git reads it).
 * `commits` are the distinct commits that introduced lines, `lines` one entry per line of the text
 * (0-based): an index into `commits`, or -1 for a line HEAD's version does not have (uncommitted).
 * `head` is the HEAD the attribution was computed at (null on an unborn branch or outside history).
 */
export interface LineAttribution {
  readonly head: string | null;
  readonly commits: readonly Lineage[];
  readonly lines: readonly number[];
}

/**
 * Attribute every line of `text` (the file's current text) to the commit that introduced it, walking
 * the commit graph from HEAD, merges included (git/blame.ts; past its commit bound a line gets the
 * oldest commit seen). One line diff per commit that changed the file; callers cache the answer per
 * blob (service/trust/provenance.ts), so a blob is attributed once.
 */
export async function attributeLines(repo: GitRepo, filepath: string, text: string): Promise<LineAttribution> {
  const cur = splitLines(text.replace(/\r\n?/g, '\n'));
  const owner = new Array<number>(cur.length).fill(-1);
  const head = await readHead(repo);
  if (head.kind === 'unborn') return { head: null, commits: [], lines: owner };
  // The lines HEAD's version has: handed down the commit graph, merges included (git/blame.ts, R170).
  const blamed = await blameLines(repo, head.oid, filepath, (headLines) => keptLines(cur, headLines) ?? new Map());
  const commits: Lineage[] = [];
  const index = new Map<string, number>();
  for (const [line, who] of [...blamed].sort((x, y) => x[0] - y[0])) {
    let k = index.get(who.commit);
    if (k === undefined)
      index.set(who.commit, (k = commits.push({ commit: who.commit, author: who.author, date: who.date }) - 1));
    owner[line] = k;
  }
  return { head: head.oid, commits, lines: owner };
}
