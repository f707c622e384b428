// Checked against the code: is the code a memory cites still what the memory describes? For one
// memory (an entry, a chunk of a note) and each code file it cites (parse/citations.ts): the file is
// gone (`orphaned`, with `movedTo` when the same content lives at another path), it changed since the
// memory's lines were last committed (`code-changed`, with the commits and changed lines since), or a
// backticked name the file defined then is no longer defined (`name-missing`). Front-matter
// `verified: <date>` (a person re-checked the memory) moves the baseline: only changes after that day
// count; a `verified` day still to come moves nothing (R65). Answers are cached in derived state per (memory blob, chunk text, cited blobs, HEAD), so a
// recall walks history only for results it has not seen at this HEAD.
// deps: core, parse (citations, front-matter), git (code-history, lineage, repo), engine (git-context).
import { sha256 } from '../../core/hash.js';
import { diffLineOps, splitLines } from '../../core/line-diff.js';
import { lastVerifiableDay, verifiedDay } from '../../core/verified-date.js';
import type { IndexStorage } from '../../core/ports.js';
import { definesName, extractCitations, type CitationSet } from '../../parse/citations.js';
import {
  commitsSince,
  findBlobInHead,
  headCommit,
  readWorkFile,
  textAt,
  type WorkFile,
} from '../../git/code-history.js';
import { chunkLineage } from '../../git/lineage.js';
import { toRepoPath, type GitRepo, type MemoryScope } from '../../git/repo.js';

/** What the code check found for one cited file (or one cited name in it). */
export type CodeState = 'fresh' | 'orphaned' | 'code-changed' | 'name-missing';

/** One cited file's state, as recall results (`code`), `gitmem verify --json` and the editor carry it. */
export interface CodeStatus {
  /** The cited path, repository-relative POSIX. */
  readonly path: string;
  readonly status: CodeState;
  /** `code-changed`: commits that changed the file since the baseline (0: only uncommitted edits). */
  readonly commits?: number;
  /** `code-changed`: lines added plus lines removed between the baseline and the work-tree file. */
  readonly changedLines?: number;
  /** `name-missing`: the backticked name the file no longer defines. */
  readonly name?: string;
  /** `orphaned`: a path of HEAD that holds the file's content as it was at the baseline (a rename). */
  readonly movedTo?: string;
  /** The baseline commit (full id): where the memory's lines were last committed, or the last change `verified` covers. */
  readonly since?: string;
}

/** Score multiplier of a stale memory's hits at recall (like EXPIRED_FACTOR, service/recall/truth.ts). */
export const STALE_FACTOR = 0.5;

/** @returns true when a status says the memory may no longer hold. */
export function isStale(s: Pick<CodeStatus, 'status'>): boolean {
  return s.status !== 'fresh';
}

/** One memory to check: a workspace-relative memory file, the memory's text, its `files:` and `verified:`. */
export interface MemoryPiece {
  readonly path: string;
  readonly text: string;
  readonly files?: readonly string[];
  /** Front-matter `verified:` (YYYY-MM-DD…), when set. */
  readonly verified?: string;
}

const CACHE_ARTIFACT = 'code-checks.json';
/** Cached answers kept (the oldest are dropped first). */
const CACHE_KEEP = 20_000;

/** The cache's version: answers cached by an earlier one are not read. v2: a `verified` day still to
 * come moves no baseline (R65). v3: the memory's commit is blamed over the commit graph, so a sync
 * merge no longer stands in for it (R190). */
const CACHE_VERSION = 3;

interface CacheFile {
  readonly v: typeof CACHE_VERSION;
  readonly entries: Record<string, CodeStatus[]>;
}

/** @returns the front-matter `verified:` date of a memory file's text (first 4 KB), or undefined. */
export function verifiedOf(text: string): string | undefined {
  const m = /^\uFEFF?---\r?\n([\s\S]{0,4000}?)\r?\n---/.exec(text);
  const v = m && /^verified:\s*['"]?(\d{4}-\d{2}-\d{2})/m.exec(m[1]!);
  return v ? v[1] : undefined;
}

/** End of a YYYY-MM-DD day (UTC), in seconds since the epoch: commits after it count. */
function endOfDay(day: string): number {
  return Date.parse(`${day.slice(0, 10)}T23:59:59Z`) / 1000;
}

/**
 * The end of the `verified` day when it can be a person's word, else undefined: a day after tomorrow
 * (UTC; a day's slack for the time zones) claims a check not yet made, and would hide every change
 * to the code until then (R65), so it moves no baseline; nor does a value that names no real day.
 * The days are core/verified-date.ts's, which validate's `memory.code.verified-date` reports (R90).
 */
function verifiedEndOf(verified: string | undefined, nowMs: number): number | undefined {
  const day = verifiedDay(verified);
  if (!day || day > lastVerifiableDay(new Date(nowMs).toISOString().slice(0, 10))) return undefined;
  return endOfDay(day);
}

function changedLineCount(before: string, after: string): number {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLineOps(a, b);
  return ops ? ops.filter((o) => o.t !== ' ').length : a.length + b.length;
}

/**
 * The code check of one repository. Open it once per request (recall, `verify`, the editor's
 * diagnostics) and {@link flush} when done; answers are cached per HEAD in derived state.
 */
export class CodeChecker {
  readonly #repo: GitRepo;
  readonly #scope: MemoryScope;
  readonly #storage: IndexStorage | undefined;
  #cache: Map<string, CodeStatus[]> | undefined;
  #dirty = false;
  #head: string | undefined | null = null;

  constructor(repo: GitRepo, scope: MemoryScope, storage?: IndexStorage) {
    this.#repo = repo;
    this.#scope = scope;
    this.#storage = storage;
  }

  /** @returns true when `piece` cites any path (no git read): most memories cite none. */
  static cites(piece: Pick<MemoryPiece, 'text' | 'files'>): boolean {
    return (piece.files?.length ?? 0) > 0 || extractCitations(piece.text).paths.length > 0;
  }

  async #loadCache(): Promise<Map<string, CodeStatus[]>> {
    if (this.#cache) return this.#cache;
    this.#cache = new Map();
    try {
      const bytes = await this.#storage?.read(CACHE_ARTIFACT);
      if (bytes) {
        const data = JSON.parse(new TextDecoder().decode(bytes)) as CacheFile;
        if (data.v === CACHE_VERSION) for (const [k, v] of Object.entries(data.entries)) this.#cache.set(k, v);
      }
    } catch {
      /* an unreadable cache is rebuilt */
    }
    return this.#cache;
  }

  /** Write the cache when it changed. Never throws: a cache that cannot be written is recomputed next time. */
  async flush(): Promise<void> {
    if (!this.#dirty || !this.#cache || !this.#storage) return;
    const all = [...this.#cache.entries()].slice(-CACHE_KEEP);
    try {
      await this.#storage.write(CACHE_ARTIFACT, JSON.stringify({ v: CACHE_VERSION, entries: Object.fromEntries(all) }));
      this.#dirty = false;
    } catch {
      /* derived state only */
    }
  }

  /** The repository path of a cited path: `files:` are workspace-relative, text paths repository- then workspace-relative. */
  #candidates(path: string, from: 'files' | 'text'): string[] {
    const inWs = toRepoPath(this.#scope, path);
    return from === 'files' || inWs === path ? [inWs] : [path, inWs];
  }

  /**
   * The states of every file `piece` cites (fresh ones included), in citation order; [] when it
   * cites none. Text paths that exist neither now nor at the memory's commit are not citations.
   */
  async check(piece: MemoryPiece): Promise<CodeStatus[]> {
    const cites = extractCitations(piece.text, piece.files ?? []);
    if (!cites.paths.length) return [];
    if (this.#head === null) this.#head = await headCommit(this.#repo);
    // Each cited path with its work-tree file: these reads decide the cache key.
    const current: { path: string; from: 'files' | 'text'; file: WorkFile | undefined; all: string[] }[] = [];
    for (const c of cites.paths) {
      const all = this.#candidates(c.path, c.from);
      let hit: { path: string; file: WorkFile | undefined } = { path: all[0]!, file: undefined };
      for (const p of all) {
        const file = await readWorkFile(this.#repo, p);
        if (file) {
          hit = { path: p, file };
          break;
        }
      }
      current.push({ ...hit, from: c.from, all });
    }
    // The baseline `verified` moves is part of the key: a day not yet honoured is once it arrives.
    const verifiedEnd = verifiedEndOf(piece.verified, Date.now());
    const key = sha256(
      JSON.stringify([
        this.#head ?? '',
        toRepoPath(this.#scope, piece.path),
        piece.text,
        piece.files ?? [],
        piece.verified ?? '',
        verifiedEnd ?? '',
        current.map((c) => [c.path, c.file?.oid ?? '']),
      ]),
    );
    const cache = await this.#loadCache();
    const cached = cache.get(key);
    if (cached) return cached;
    const out = await this.#compute(piece, cites, current, verifiedEnd);
    cache.delete(key);
    cache.set(key, out);
    this.#dirty = true;
    return out;
  }

  async #compute(
    piece: MemoryPiece,
    cites: CitationSet,
    current: readonly { path: string; from: 'files' | 'text'; file: WorkFile | undefined; all: string[] }[],
    verifiedEnd: number | undefined,
  ): Promise<CodeStatus[]> {
    const repo = this.#repo;
    const anchor = this.#head
      ? (await chunkLineage(repo, toRepoPath(this.#scope, piece.path), piece.text.replace(/\s+$/, '')))?.commit
      : undefined;
    const out: CodeStatus[] = [];
    for (const c of current) {
      // The file as the memory saw it: at the memory's commit, under the path that resolved (or any candidate).
      let path = c.path;
      let then: { text: string; oid: string } | undefined;
      if (anchor)
        for (const p of c.file ? [c.path] : c.all) {
          const at = await textAt(repo, anchor, p);
          if (at !== undefined) {
            then = at;
            path = p;
            break;
          }
        }
      if (!c.file) {
        // A path only mentioned in prose that never existed here is not a citation of this repository's code.
        if (c.from === 'text' && !then) continue;
        const movedTo = then ? await findBlobInHead(repo, then.oid) : undefined;
        out.push({ path, status: 'orphaned', ...(movedTo ? { movedTo } : {}), ...(anchor ? { since: anchor } : {}) });
        continue;
      }
      if (!anchor) {
        out.push({ path, status: 'fresh' }); // the memory's lines are not committed: nothing to compare with
        continue;
      }
      // Commits since the memory's commit; with `verified`, only those after that day, from the version the person saw.
      const since = await commitsSince(repo, path, anchor);
      const counted = verifiedEnd === undefined ? since : since.filter((x) => x.timestamp > verifiedEnd);
      const seen = verifiedEnd === undefined ? undefined : since.find((x) => x.timestamp <= verifiedEnd);
      const baseline = seen?.oid ?? anchor;
      const base = seen ? (await textAt(repo, seen.oid, path))?.text : then?.text;
      const changed = changedLineCount(base ?? '', c.file.text);
      for (const name of cites.names) {
        if (base !== undefined && definesName(base, name) && !definesName(c.file.text, name))
          out.push({ path, status: 'name-missing', name, since: baseline });
      }
      if (counted.length > 0 || changed > 0)
        out.push({ path, status: 'code-changed', commits: counted.length, changedLines: changed, since: baseline });
      else if (!out.some((o) => o.path === path)) out.push({ path, status: 'fresh', since: baseline });
    }
    return out;
  }
}
