// The entries a write's checks compare a new text against (dedupe by text and by meaning, possible
// conflicts), found through the index instead of a read of every memory file: the entries of the
// text's type among the keyword index's best chunks for the text, and among the nearest stored
// vectors when a semantic half is loaded. Only those files are read and parsed, so a write costs the
// files it may repeat, not the workspace (issue #44: a one-shot `remember` at 10,000 files read and
// parsed all of them). deps: core, engine, service/shared.
import type { MemoryDoc } from '../../core/document.js';
import { classify } from '../../core/layout.js';
import type { RelPath } from '../../core/paths.js';
import { MemoryWorkspace } from '../../core/workspace.js';
import type { IndexSnapshot } from '../../engine/chunks/index-manager.js';
import { readMemoryFiles } from '../../engine/load/load.js';
import { parseCached } from '../../engine/load/parse-cache.js';
import type { MemoryContext } from './memory-context.js';

/** Chunks of the keyword answer for the new text that are looked at, best first. */
const KEYWORD_CHUNKS = 400;
/** Entries of the type, at most, that the keyword half names. */
const KEYWORD_ENTRIES = 40;
/** Nearest stored vectors looked at when a semantic half is loaded. */
const VECTOR_KEYS = 64;
/** Entries of the type, at most, that the vector half names. */
const VECTOR_ENTRIES = 16;

/**
 * The index snapshot a use case answers from: a long-lived process whose watcher keeps the index
 * fresh (`freshnessMode: 'manual'`) reads its last snapshot; a one-shot call brings it up to date
 * first (`answerSnapshot`: no walk when the workspace lists as after the last clean walk).
 */
export async function answerIndex(
  ctx: Pick<MemoryContext, 'freshnessMode' | 'freshness' | 'answerSnapshot'>,
): Promise<IndexSnapshot> {
  return (ctx.freshnessMode === 'manual' && ctx.freshness.snapshot) || (await ctx.answerSnapshot());
}

/**
 * Entry paths of `type` (any type when undefined) the index names for `text`: the keyword index's
 * best chunks for the text's words, then (with a loaded semantic half) the chunks nearest to
 * `probe`, the text as entries are embedded. Best first, each path once.
 * @returns at most KEYWORD_ENTRIES + VECTOR_ENTRIES paths; empty for a text without searchable words
 *   and no semantic half.
 */
export async function candidatePaths(
  ctx: Pick<MemoryContext, 'semantic' | 'config'>,
  snapshot: IndexSnapshot,
  incoming: { readonly text: string; readonly type?: string | undefined; readonly probe?: string },
): Promise<string[]> {
  const chunks = snapshot.chunks;
  // Kind and entry type are the file's: decided once per path, from one record (a hit in a long
  // note no longer decodes records until its id is found: measured at 10,000 files, that search
  // was the largest part of a warm MCP memory_remember).
  const decided = new Map<string, boolean>();
  const candidatePath = (id: string): string | undefined => {
    const hash = id.lastIndexOf('#');
    if (hash < 0) return undefined;
    const path = id.slice(0, hash);
    let ok = decided.get(path);
    if (ok === undefined) {
      const c = chunks.firstOf ? chunks.firstOf(path) : chunks.get(id);
      ok = c !== undefined && c.kind === 'entry' && (incoming.type === undefined || c.entry?.type === incoming.type);
      decided.set(path, ok);
    }
    return ok ? path : undefined;
  };
  const byText: string[] = [];
  // The text is a memory, not a query: its `-x`, `+y`, `word*` and `type:` are words, so every term
  // is optional (a prohibited `-X` in `curl -X POST` excluded the very entry it repeats).
  const query = snapshot.lexical.parseQuery(incoming.text);
  const parsed = {
    ...query,
    terms: query.terms.map((t) => ({ ...t, presence: 'optional' as const, prefix: false })),
    filters: { type: [], tag: [], kind: [] },
    empty: query.terms.length === 0,
  };
  for (const h of snapshot.lexical.search(parsed, KEYWORD_CHUNKS)) {
    const path = candidatePath(h.ref);
    if (path === undefined) continue;
    if (!byText.includes(path)) byText.push(path);
    if (byText.length >= KEYWORD_ENTRIES) break;
  }
  const { semantic, config } = ctx;
  if (!semantic || config.dedupe.cosine >= 1 || incoming.probe === undefined) return byText;
  const byKey = snapshot.byVectorKey?.();
  if (!byKey) return byText;
  const accept = (key: string) => (byKey.get(key) ?? []).some((id) => candidatePath(id) !== undefined);
  const hits = await semantic.search(incoming.probe, VECTOR_KEYS, accept);
  const byMeaning: string[] = [];
  for (const h of hits ?? []) {
    for (const id of byKey.get(h.ref) ?? []) {
      const path = candidatePath(id);
      if (path === undefined) continue;
      if (!byText.includes(path) && !byMeaning.includes(path)) byMeaning.push(path);
    }
    if (byMeaning.length >= VECTOR_ENTRIES) break;
  }
  return [...byText, ...byMeaning];
}

/**
 * The parsed documents at `paths`, in `paths` order: a file whose stat key is the one the index
 * recorded with its content hash, and whose document of that hash the parse cache holds, is taken
 * from the cache without a read (the walk's rule for an unchanged file, engine/load/load.ts); the
 * others are read and parsed now. Missing, unreadable or binary files are left out.
 */
async function candidateDocs(ctx: MemoryContext, paths: readonly string[]): Promise<MemoryDoc[]> {
  const known = await ctx.freshness.known();
  const cached: (MemoryDoc | undefined)[] = paths.map((p) => {
    const k = known?.(p);
    const kind = classify(p, ctx.loaded.layout);
    return k?.stat !== undefined && kind ? ctx.docCache.get({ path: p as RelPath, kind, hash: k.hash }) : undefined;
  });
  // One stat call for the cached ones (no promise per file): a key that moved means the file was rewritten.
  const ask = paths.filter((_, i) => cached[i] !== undefined) as RelPath[];
  const stats = ask.length && ctx.fs.statAll ? await ctx.fs.statAll(ask).catch(() => undefined) : undefined;
  const keyOf = new Map(ask.map((p, i) => [p as string, stats?.[i]?.key]));
  const docs = paths.map((p, i) => (cached[i] && keyOf.get(p) === known?.(p)?.stat ? cached[i] : undefined));
  const files = await readMemoryFiles(
    ctx.fs,
    ctx.loaded,
    paths.filter((_, i) => docs[i] === undefined),
  );
  // parseCached, not parseFiles: the cache keeps the rest of the workspace's documents.
  const read = new Map(files.map((f) => [f.path as string, parseCached(f, ctx.config, ctx.docCache)]));
  return paths.flatMap((p, i) => docs[i] ?? read.get(p) ?? []);
}

/**
 * The parsed entries a write of `incoming` is checked against ({@link candidatePaths}, read and
 * parsed now unless unchanged since the parse cache took them), as a workspace of just those documents.
 */
export async function writeCandidates(
  ctx: MemoryContext,
  incoming: { readonly text: string; readonly type?: string | undefined; readonly probe?: string },
): Promise<MemoryWorkspace> {
  const snapshot = await answerIndex(ctx);
  const paths = await candidatePaths(ctx, snapshot, incoming);
  if (paths.length === 0) return new MemoryWorkspace([]);
  return new MemoryWorkspace(await candidateDocs(ctx, paths));
}
