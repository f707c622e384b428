// Lineage of recalled lines: which commit introduced each line of a file's current text (a blame),
// from the file's history as isomorphic-git reads it. The file's versions are cached per file and
// HEAD, so repeated recalls cost one history walk per file. deps: core, isomorphic-git (via repo.ts).
import { splitLines } from '../core/line-diff.js';
import { blameLines, keptLines } from './blame.js';
import type { GitRepo } from './repo.js';
import { fileCommits, git, readHead } from './repo.js';

/** The commit that introduced a chunk's current text. `date` is ISO-8601 (UTC). */
export interface Lineage {
  readonly commit: string;
  readonly author: string;
  readonly date: string;
}

interface Version {
  readonly oid: string;
  readonly author: string;
  readonly date: string;
  /** File text at that commit, line ends normalised to \n. */
  readonly text: string;
}

/** Most commits of one file's history looked at (older lines get the oldest commit seen). */
const LINEAGE_DEPTH = 200;

const cache = new Map<string, Promise<Version[]>>();

async function versions(repo: GitRepo, head: string, filepath: string): Promise<Version[]> {
  const key = `${repo.gitdir}\0${head}\0${filepath}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = (async () => {
      // [] when not in HEAD (new, uncommitted file) or history unreadable: no lineage
      const commits = await fileCommits(repo, head, filepath, LINEAGE_DEPTH);
      const out: Version[] = [];
      for (const c of commits) {
        try {
          const { blob } = await git.readBlob({
            fs: repo.fs,
            gitdir: repo.gitdir,
            oid: c.oid,
            filepath,
            cache: repo.cache,
          });
          out.push({
            oid: c.oid,
            author: c.commit.author.name,
            date: new Date(c.commit.author.timestamp * 1000).toISOString(),
            text: new TextDecoder()
              .decode(blob)
              .replace(/^\uFEFF/, '')
              .replace(/\r\n?/g, '\n'),
          });
        } catch {
          break; // the file did not exist before this commit
        }
      }
      return out;
    })();
    if (cache.size > 256) cache.clear();
    cache.set(key, hit);
  }
  return hit;
}

/**
 * The commit that last changed `text` (the chunk's lines) in `filepath` (repo-relative, POSIX):
 * walking the file's history from HEAD, the oldest commit of the run of versions that still contain
 * the text. @returns undefined when the text is not in HEAD (uncommitted) or there is no history.
 */
export async function chunkLineage(repo: GitRepo, filepath: string, text: string): Promise<Lineage | undefined> {
  const head = await readHead(repo);
  if (head.kind === 'unborn') return undefined;
  const list = await versions(repo, head.oid, filepath);
  const needle = text.replace(/\r\n?/g, '\n');
  let found: Version | undefined;
  for (const v of list) {
    if (!v.text.includes(needle)) break;
    found = v;
  }
  return found ? { commit: found.oid, author: found.author, date: found.date } : undefined;
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
    if (k === undefined) index.set(who.commit, (k = commits.push(who) - 1));
    owner[line] = k;
  }
  return { head: head.oid, commits, lines: owner };
}
