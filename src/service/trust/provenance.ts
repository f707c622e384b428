// Provenance of recall results: for each file a result comes from, its current text, the line→commit
// attribution of that text (git/lineage.ts attributeLines), who wrote it outside a commit (the writer
// record, service/review/writers.ts) and whether a person approved it (review-marks.ts). The
// attribution is cached in derived state per git blob id (`provenance.json` beside the index, and in
// memory for long-lived hosts): a blob is attributed once; a query reads only the files of its own
// results and, for a blob seen before, no git history at all (a blob with uncommitted lines is
// valid only while HEAD stays where it was attributed). deps: core, git, engine (git-context), service.
import { gitBlobId } from '../../core/hash.js';
import type { IndexStorage } from '../../core/ports.js';
import { toRelPath } from '../../core/paths.js';
import { attributeLines, type LineAttribution } from '../../git/lineage.js';
import { readHead, toRepoPath } from '../../git/repo.js';
import { gitContext, type GitContext } from '../../engine/load/git-context.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { readWriters, writerOf } from '../review/writers.js';
import { isApproved, type ReviewMarks } from './review-marks.js';
import type { Provenance } from './types.js';

const CACHE_FILE = 'provenance.json';
/** 2: attributions follow merges (R170); a cache of version 1 blamed a merge for its parents' lines. */
const CACHE_VERSION = 2;
/** Blobs kept in the derived-state cache (oldest dropped first). */
const CACHE_BLOBS = 1000;

/** What the trust stage knows of one memory file. */
export interface FileFacts {
  readonly path: string;
  /** The attribution of the file's current text; undefined outside git or when history is unreadable. */
  readonly attribution: LineAttribution | undefined;
  readonly writer: 'person' | 'agent';
  /** The ISO time of the agent's recorded write. */
  readonly writtenAt?: string;
  readonly approved: boolean;
}

/** Run-length form of `lines` for the cache: [count, commit index] pairs. */
type Runs = [number, number][];
interface CachedBlob {
  readonly head: string | null;
  readonly commits: LineAttribution['commits'];
  readonly runs: Runs;
}

const memo = new Map<string, CachedBlob>();

const toRuns = (lines: readonly number[]): Runs => {
  const out: Runs = [];
  for (const x of lines) {
    const last = out[out.length - 1];
    if (last && last[1] === x) last[0]++;
    else out.push([1, x]);
  }
  return out;
};
const fromRuns = (runs: Runs): number[] => runs.flatMap(([n, x]) => new Array<number>(n).fill(x));

async function readCache(storage: IndexStorage): Promise<Record<string, CachedBlob>> {
  try {
    const bytes = await storage.read(CACHE_FILE);
    if (!bytes) return {};
    const d = JSON.parse(new TextDecoder().decode(bytes)) as { v?: number; blobs?: Record<string, CachedBlob> };
    return d.v === CACHE_VERSION && d.blobs && typeof d.blobs === 'object' ? d.blobs : {};
  } catch {
    return {}; // unreadable derived state: attribute again
  }
}

/**
 * The facts of each of `paths` (workspace-relative memory files), for the trust stage. Reads each
 * file once, its attribution from the cache or (once per blob) from git, the writer records and the
 * review marks. A file that cannot be read is left out.
 */
export async function fileFacts(
  ctx: MemoryContext,
  paths: readonly string[],
  options: { readonly attribute?: boolean; readonly marks: ReviewMarks },
): Promise<Map<string, FileFacts>> {
  const out = new Map<string, FileFacts>();
  if (paths.length === 0) return out;
  const { marks } = options;
  const writers = await readWriters(ctx.storage);
  const texts = new Map<string, { bytes: Uint8Array; text: string }>();
  for (const p of paths) {
    try {
      const bytes = await ctx.fs.read(toRelPath(p));
      if (bytes) texts.set(p, { bytes, text: new TextDecoder().decode(bytes).replace(/^\uFEFF/, '') });
    } catch {
      /* removed since the recall: no facts */
    }
  }
  const attributions =
    options.attribute === false ? new Map<string, LineAttribution>() : await attributeFiles(ctx, texts);
  for (const [p, { text }] of texts) {
    const w = writerOf(writers, p, text);
    out.set(p, {
      path: p,
      attribution: attributions.get(p),
      writer: w.writer === 'agent' ? 'agent' : 'person',
      ...(w.writer === 'agent' && w.at ? { writtenAt: w.at } : {}),
      approved: isApproved(marks, p, text),
    });
  }
  return out;
}

async function attributeFiles(
  ctx: MemoryContext,
  texts: ReadonlyMap<string, { bytes: Uint8Array; text: string }>,
): Promise<Map<string, LineAttribution>> {
  const out = new Map<string, LineAttribution>();
  const where = ctx.git;
  if (!where?.gitdir || !where.workTree || texts.size === 0) return out;
  let git: GitContext;
  try {
    git = gitContext({ root: ctx.fs.root, loaded: ctx.loaded }, where);
  } catch {
    return out; // e.g. the workspace is outside the work tree: no attribution
  }
  const key = (blob: string) => `${ctx.storage.location}\0${blob}`;
  let stored: Record<string, CachedBlob> | undefined;
  let head: string | null | undefined;
  const currentHead = async () => {
    if (head === undefined) {
      const h = await readHead(git.repo).catch(() => undefined);
      head = h && h.kind !== 'unborn' ? h.oid : null;
    }
    return head;
  };
  const fresh: Record<string, CachedBlob> = {};
  for (const [p, { bytes, text }] of texts) {
    const blob = gitBlobId(bytes);
    let hit = memo.get(key(blob));
    if (!hit) {
      stored ??= await readCache(ctx.storage);
      hit = stored[blob];
    }
    const uncommitted = hit?.runs.some(([, x]) => x < 0) ?? true;
    if (hit && (!uncommitted || hit.head === (await currentHead()))) {
      memo.set(key(blob), hit);
      out.set(p, { head: hit.head, commits: hit.commits, lines: fromRuns(hit.runs) });
      continue;
    }
    try {
      const a = await attributeLines(git.repo, toRepoPath(git.scope, p), text);
      const entry: CachedBlob = { head: a.head, commits: a.commits, runs: toRuns(a.lines) };
      memo.set(key(blob), entry);
      fresh[blob] = entry;
      out.set(p, a);
    } catch (e) {
      ctx.logger.debug(`provenance of ${p} not attributed: ${(e as Error).message}`);
    }
  }
  if (memo.size > CACHE_BLOBS * 2) memo.clear();
  if (Object.keys(fresh).length > 0) {
    try {
      const all = { ...(stored ?? (await readCache(ctx.storage))) };
      for (const [b, e] of Object.entries(fresh)) {
        delete all[b];
        all[b] = e;
      }
      const keys = Object.keys(all);
      for (const k of keys.slice(0, Math.max(0, keys.length - CACHE_BLOBS))) delete all[k];
      await ctx.storage.write(CACHE_FILE, JSON.stringify({ v: CACHE_VERSION, blobs: all }));
    } catch (e) {
      ctx.logger.warn(`provenance cache not saved: ${(e as Error).message}`);
    }
  }
  return out;
}

/**
 * The provenance of lines `startLine`–`endLine` (1-based, inclusive) of a file: the newest commit
 * among them, or `uncommitted` when one of them is not in HEAD. Undefined without an attribution.
 */
export function spanProvenance(f: FileFacts, startLine: number, endLine: number): Provenance | undefined {
  const a = f.attribution;
  if (!a) return undefined;
  let best: LineAttribution['commits'][number] | undefined;
  for (let l = Math.max(1, startLine); l <= Math.min(endLine, a.lines.length); l++) {
    const k = a.lines[l - 1]!;
    if (k < 0) return { commit: 'uncommitted', writer: f.writer };
    const c = a.commits[k];
    if (c && (!best || c.date > best.date)) best = c;
  }
  if (!best) return { commit: 'uncommitted', writer: f.writer };
  return {
    commit: best.commit,
    short: best.commit.slice(0, 7),
    author: best.author,
    date: best.date,
    writer: f.writer,
  };
}

/** The commits that introduced lines `startLine`–`endLine` (1-based, inclusive) of a file. */
export function spanCommits(f: FileFacts, startLine: number, endLine: number): string[] {
  const a = f.attribution;
  if (!a) return [];
  const out = new Set<string>();
  for (let l = Math.max(1, startLine); l <= Math.min(endLine, a.lines.length); l++) {
    const c = a.commits[a.lines[l - 1]!];
    if (c) out.add(c.commit);
  }
  return [...out];
}
