// What `gitmem export` may write of the memory into a file a host always loads: the working state
// and MEMORY.md's items through the trust stage (service/trust/quoted-file.ts), for an injected
// audience: a state or an item that arrived by sync and is not reviewed is left out whole, lines
// flagged as instructions one by one (per `recall.inject`; labelled when it allows them), hidden
// characters shown; the one line saying what was left out goes into the block. Secrets stay for
// pack.ts to mask and report. deps: continuity, service/trust, service/export.
import { parseState } from '../../continuity/parse-state.js';
import { snapshotState } from '../../continuity/snapshot.js';
import { withheldNote } from '../trust/inject-policy.js';
import { addCounts, quoteFile, quoteSpans } from '../trust/quoted-file.js';
import type { TrustClass } from '../trust/types.js';
import type { MemoryContext } from '../shared/memory-context.js';
import type { MemoryItem } from './pack.js';

export interface QuotedExport {
  /** The working state as the session-start snapshot words it, with no age; '' when none or withheld. */
  readonly state: string;
  /** MEMORY.md's items that may be exported, flagged lines out. */
  readonly items: MemoryItem[];
  /** The one line saying what was left out, e.g. `1 unreviewed incoming memory withheld: gitmem review`. */
  readonly withheld?: string;
}

/** The working state (`stateFile`) and `items` (of files read whole: `texts`, path → text) as export may write them. */
export async function quotedExport(
  ctx: MemoryContext,
  stateFile: { readonly path: string; readonly text: string } | undefined,
  texts: ReadonlyMap<string, string>,
  items: readonly MemoryItem[],
  maxTokens: number,
): Promise<QuotedExport> {
  const counts = new Map<TrustClass, number>();
  let state = '';
  if (stateFile) {
    const q = await quoteFile(ctx, stateFile.path, stateFile.text, 'injected', { mask: false });
    addCounts(counts, q.counts);
    // No age: a re-run with nothing changed is byte-identical.
    if (!q.withheld)
      state = snapshotState(parseState(q.text), { now: new Date(0), staleAfterHours: Infinity, maxTokens }).text;
  }
  const kept: MemoryItem[] = [];
  for (const [path, text] of texts) {
    const mine = items.filter((it) => it.path === path);
    const spans = mine.map((it) => ({ startLine: it.line, endLine: it.line + it.text.split('\n').length - 1 }));
    const q = await quoteSpans(ctx, path, text, spans, 'injected', { mask: false });
    addCounts(counts, q.counts);
    q.spans.forEach((s, i) => {
      const body = s.lines.map((l) => l.text).join('\n');
      if (!s.withheldBy && body.trim()) kept.push({ ...mine[i]!, text: body.trimEnd() });
    });
  }
  const withheld = withheldNote(counts);
  return { state, items: kept, ...(withheld ? { withheld } : {}) };
}
