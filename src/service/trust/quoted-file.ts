// What an agent may read of a memory file read whole rather than recalled: the working state
// (`gitmem state snapshot`, the SessionStart hook, `state handoff`, MCP memory_state) and the block
// `gitmem export` writes into CLAUDE.md / AGENTS.md. The same trust stage as recall's block: each
// span annotated by `annotateSpans` (provenance, review state, the labellers' flags), the injection
// policy `recall.inject` (`decideInjection`) for an injected audience and its one-line note
// (`withheldNote`), secrets masked (core/secret-mask.ts), hidden characters shown and flagged lines
// that stay labelled (core/injection.ts); an order split across two lines is read over the whole file,
// so a span holding one of its lines gets the label too. deps: core, service/trust.
import { flaggedLines, labelLine, showHidden } from '../../core/injection.js';
import { maskSecrets } from '../../core/secret-mask.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { decideInjection, withheldNote } from './inject-policy.js';
import { annotateSpans, blockLabel, type TrustItem } from './stage.js';
import type { RecallAudience, TrustClass } from './types.js';

/** One span of the file as an agent may see it. */
export interface QuotedSpan {
  readonly startLine: number;
  readonly endLine: number;
  /** The class that withholds the whole span (an injected audience only), else undefined. */
  readonly withheldBy: TrustClass | undefined;
  /** Its lines (file line → text): masked, hidden characters shown, flagged lines labelled or, when withheld, left out. */
  readonly lines: readonly { readonly line: number; readonly text: string }[];
  /** The span's trust annotations (provenance, review, labels). */
  readonly trust: TrustItem;
}

export interface QuotedSpans {
  readonly spans: QuotedSpan[];
  /** What was withheld: whole spans per class (counted as memories), flagged lines per line. */
  readonly counts: Map<TrustClass, number>;
}

export interface QuoteOptions {
  /** Mask secrets (default true); false for a caller that masks and reports them itself (`gitmem export`). */
  readonly mask?: boolean;
}

/** `counts` plus `more`, added class by class. */
export function addCounts(counts: Map<TrustClass, number>, more: ReadonlyMap<TrustClass, number>): void {
  for (const [c, n] of more) counts.set(c, (counts.get(c) ?? 0) + n);
}

/**
 * The spans of `path` (its current `text`; spans in 1-based file lines) as `audience` may see them.
 * For `injected`, what `recall.inject` does not allow is withheld: a span whose review state is not
 * allowed (`incoming` by default) whole, flagged lines (`injection`) one by one; other audiences
 * get every line, the flagged ones labelled `[suspected instruction, quoted]`.
 */
export async function quoteSpans(
  ctx: MemoryContext,
  path: string,
  text: string,
  spans: readonly { readonly startLine: number; readonly endLine: number }[],
  audience: RecallAudience,
  options: QuoteOptions = {},
): Promise<QuotedSpans> {
  const all = (options.mask === false ? text : maskSecrets(text)).split(/\r\n|\r|\n/);
  const linesOf = (s: { startLine: number; endLine: number }) =>
    all.slice(s.startLine - 1, s.endLine).map((t, i) => ({ line: s.startLine + i, text: t }));
  const items = await annotateSpans(
    ctx,
    spans.map((s) => ({ path, startLine: s.startLine, endLine: s.endLine, lines: linesOf(s) })),
  );
  labelSplitOrders(all, items);
  const counts = new Map<TrustClass, number>();
  const out = items.map((t): QuotedSpan => {
    const flagged = new Set(t.labels.filter((l) => l.class === 'injection').flatMap((l) => l.lines ?? []));
    const d = audience === 'injected' ? decideInjection(ctx.config.recall.inject, t.review, t.labels) : undefined;
    if (d?.withheldBy) {
      counts.set(d.withheldBy, (counts.get(d.withheldBy) ?? 0) + 1);
      return { startLine: t.startLine, endLine: t.endLine, withheldBy: d.withheldBy, lines: [], trust: t };
    }
    for (const l of t.labels)
      for (const n of l.lines ?? []) if (d?.lines.has(n)) counts.set(l.class, (counts.get(l.class) ?? 0) + 1);
    const lines = t.lines
      .filter((l) => !d?.lines.has(l.line))
      .map((l) => ({ line: l.line, text: flagged.has(l.line) ? labelLine(showHidden(l.text)) : showHidden(l.text) }));
    return { startLine: t.startLine, endLine: t.endLine, withheldBy: undefined, lines, trust: t };
  });
  return { spans: out, counts };
}

/** A memory file read whole, as an agent may see it. */
export interface QuotedFile {
  /**
   * The text (same number of lines as the file): masked, flagged lines labelled, or blank where
   * withheld; '' when the whole file is withheld.
   */
  readonly text: string;
  /** The whole file is withheld (its review state is not allowed in an injected block). */
  readonly withheld: boolean;
  /** The one line saying what was withheld, e.g. `1 unreviewed incoming memory withheld: gitmem review`. */
  readonly note?: string;
  /** What was withheld, per class (for callers that add up several files). */
  readonly counts: Map<TrustClass, number>;
  /** The file's label as the recall block shows it beside a path (`a1b2c3d Ann 2026-12-07 · incoming`). */
  readonly label: string;
}

/**
 * `text` of `path` read whole for `audience`: line by line through {@link quoteSpans}; for an
 * injected audience the whole file is withheld when any line's review state is not allowed (as the
 * recall block withholds a file), flagged lines blanked; the label is the whole file's.
 */
export async function quoteFile(
  ctx: MemoryContext,
  path: string,
  text: string,
  audience: RecallAudience,
  options: QuoteOptions = {},
): Promise<QuotedFile> {
  const n = text.split(/\r\n|\r|\n/).length;
  const spans = [
    { startLine: 1, endLine: n },
    ...Array.from({ length: n }, (_, i) => ({ startLine: i + 1, endLine: i + 1 })),
  ];
  const q = await quoteSpans(ctx, path, text, spans, audience, options);
  const [whole, ...lines] = q.spans;
  const label = blockLabel(whole!.trust, path);
  const firstWithheld = lines.find((s) => s.withheldBy)?.withheldBy;
  if (firstWithheld) {
    const counts = new Map<TrustClass, number>([[firstWithheld, 1]]);
    return { text: '', withheld: true, note: withheldNote(counts)!, counts, label };
  }
  // The per-line spans decide; the whole-file span only gave the label.
  const counts = new Map<TrustClass, number>();
  for (const s of lines)
    for (const l of s.trust.labels)
      if (l.lines && audience === 'injected' && s.lines.length === 0)
        counts.set(l.class, (counts.get(l.class) ?? 0) + 1);
  const shown = lines.map((s) => s.lines[0]?.text ?? '');
  const note = withheldNote(counts);
  return { text: shown.join('\n'), withheld: false, ...(note ? { note } : {}), counts, label };
}

/**
 * Give each span the `injection` label for its lines that hold an order split across two lines of
 * the file (core/injection.ts `flaggedLines` over the whole file, R152) but that the span, read
 * alone, does not flag: a one-line span of `quoteFile` (R181), one MEMORY.md item of the export (R185).
 */
function labelSplitOrders(all: readonly string[], items: readonly TrustItem[]): void {
  const split = flaggedLines(all.map((text, i) => ({ line: i + 1, text })));
  if (split.size === 0) return;
  for (const t of items) {
    const own = new Set(t.labels.filter((l) => l.class === 'injection').flatMap((l) => l.lines ?? []));
    const extra = t.lines.filter((l) => split.has(l.line) && !own.has(l.line)).map((l) => l.line);
    if (extra.length > 0) t.labels.push({ class: 'injection', text: 'suspected instruction', lines: extra });
  }
}
