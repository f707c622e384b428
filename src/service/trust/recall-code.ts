// The code check at recall: only the memories a recall returns (or packs into its context block)
// are checked against the code they cite (service/trust/code-check.ts, cached per HEAD in derived
// state). A stale one ranks down (score × STALE_FACTOR, like an expired entry) and is labelled in
// the block; every checked result carries `code: [{ path, status, … }]`. A recall is run again only
// when a result turned out stale, so its ranking and block reflect it; nothing is re-run otherwise.
// deps: core, engine (types), service/recall (types), service/trust.
import { toRelPath } from '../../core/paths.js';
import type { ChunkRecord } from '../../engine/chunks/index-manager.js';
import type { RecallResponse } from '../recall/types.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { CodeChecker, isStale, STALE_FACTOR, verifiedOf, type CodeStatus } from './code-check.js';

/** What a recall asks of the code check while it ranks (RecallOptions `codeCheck`). */
export interface CodeLookup {
  /** The checked states of chunk `c` (undefined: not checked yet, ranked as fresh). */
  statusOf(c: ChunkRecord): readonly CodeStatus[] | undefined;
  /** Told of every chunk that reaches the returned results or the context block. */
  seen(c: ChunkRecord): void;
}

/** Most recall runs per answer: the first, and again while newly surfaced results turn out stale. */
const MAX_RUNS = 3;

/**
 * Demote stale hits (score × STALE_FACTOR) and re-sort, best first (a stable sort keeps the order of ties).
 * @returns `hits` itself when none is stale.
 */
export function demoteStale<T extends { ref: string; score: number }>(
  hits: T[],
  chunk: (ref: string) => ChunkRecord | undefined,
  code: CodeLookup,
): T[] {
  let touched = false;
  const out = hits.map((h) => {
    const c = chunk(h.ref);
    const s = c ? code.statusOf(c) : undefined;
    if (!s?.some(isStale)) return h;
    touched = true;
    return { ...h, score: h.score * STALE_FACTOR };
  });
  return touched ? out.sort((a, b) => b.score - a.score) : hits;
}

/** The block label of a chunk's stale states, e.g. `code changed: src/x.ts (2 commits since)`; undefined when fresh. */
export function codeLabel(states: readonly CodeStatus[] | undefined): string | undefined {
  const stale = states?.filter(isStale) ?? [];
  if (!stale.length) return undefined;
  return stale
    .map((s) =>
      s.status === 'orphaned'
        ? `code gone: ${s.path}`
        : s.status === 'name-missing'
          ? `name gone: ${s.name} in ${s.path}`
          : `code changed: ${s.path} (${s.commits} commit${s.commits === 1 ? '' : 's'} since)`,
    )
    .join('; ');
}

/**
 * Run a recall with the code check: `run(lookup)` is the recall over one snapshot. Outside git, or
 * when nothing returned cites code, this is one run and no git read.
 */
export async function recallWithCodeCheck(
  ctx: MemoryContext,
  run: (code: CodeLookup | undefined) => Promise<RecallResponse>,
): Promise<RecallResponse> {
  if (!ctx.git) return run(undefined);
  const known = new Map<string, readonly CodeStatus[]>();
  const byStart = new Map<string, readonly CodeStatus[]>();
  const pending = new Map<string, ChunkRecord>();
  const lookup: CodeLookup = {
    statusOf: (c) => known.get(c.id),
    seen: (c) => {
      if (!known.has(c.id) && CodeChecker.cites({ text: c.text, files: c.files ?? [] })) pending.set(c.id, c);
    },
  };
  let res = await run(lookup);
  let checker: CodeChecker | undefined;
  for (let runs = 1; pending.size > 0; runs++) {
    try {
      checker ??= (await import('./verify.js')).openCodeChecker(ctx);
    } catch (e) {
      ctx.logger.debug(`code check skipped: ${(e as Error).message}`);
      return res;
    }
    let stale = false;
    for (const c of [...pending.values()]) {
      pending.delete(c.id);
      let code: readonly CodeStatus[];
      try {
        const text = c.entry ? await ctx.fs.read(toRelPath(c.path)) : undefined;
        const verified = text ? verifiedOf(new TextDecoder().decode(text)) : undefined;
        code = await checker.check({
          path: c.path,
          text: c.text,
          files: c.files ?? [],
          ...(verified ? { verified } : {}),
        });
      } catch (e) {
        ctx.logger.debug(`code check of ${c.path} failed: ${(e as Error).message}`);
        code = [];
      }
      known.set(c.id, code);
      byStart.set(`${c.path}#${c.startLine}`, code);
      if (code.some(isStale)) stale = true;
    }
    if (!stale || runs >= MAX_RUNS) break;
    res = await run(lookup);
  }
  await checker?.flush();
  for (const r of res.results) {
    const code = byStart.get(`${r.path}#${r.chunk.startLine}`);
    if (code?.length) r.code = code.map((s) => ({ ...s }));
  }
  return res;
}
