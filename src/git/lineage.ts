// Lineage of recalled lines: which commit last changed a chunk's lines (a blame at chunk level),
// from the file's history as isomorphic-git reads it. The file's versions are cached per file and
// HEAD, so repeated recalls cost one history walk per file. deps: core, isomorphic-git (via repo.ts).
import type { GitRepo } from './repo.js';
import { git, readHead } from './repo.js';

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
      let commits: Awaited<ReturnType<typeof git.log>>;
      try {
        commits = await git.log({
          fs: repo.fs,
          dir: repo.dir,
          gitdir: repo.gitdir,
          ref: head,
          filepath,
          depth: LINEAGE_DEPTH,
          cache: repo.cache,
        });
      } catch {
        return []; // not in HEAD (new, uncommitted file) or history unreadable: no lineage
      }
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
