// One fused hit of a recall, shaped three ways: its evidence span (the lines an answer shows), its
// view for the conflict check (service/trust/conflicts.ts), its context-block item and its recall
// result (snippet, scores, entry, supersession, expiry, injection label, explain).
// deps: core, engine (types), indexes, service/recall, service/trust.
import { excerptForAgent, forAgent, injectionIn } from '../../core/agent-text.js';
import { markInjection } from '../../core/injection.js';
import { tokenize } from '../../core/tokenize.js';
import { pickEvidence, type queryWeights } from '../../indexes/evidence/evidence.js';
import { makeSnippet } from '../../indexes/evidence/snippet.js';
import type { ChunkRecord, IndexSnapshot } from '../../engine/chunks/index-manager.js';
import { codeLabel } from '../trust/recall-code.js';
import type { ConflictView } from '../trust/conflicts.js';
import type { ContextItem } from './context-block.js';
import type { Fused } from './fuse.js';
import { hiddenReason } from './priors.js';
import type { Restatement } from './restatement.js';
import { contextSpan, linesAround } from './spans.js';
import { expiryOf } from './truth.js';
import type { FusionSettings, RecallOptions, RecallResult } from './types.js';

/** Most lines in an evidence span (the default chunk size). */
const EVIDENCE_MAX_LINES = 5;
/** Lines around each retrieved chunk that also compete for the context block. */
const PACK_AROUND = 2;

/** A hit's evidence span: 1-based file lines (`endLine` inside the chunk's window) and its text. */
export interface Evidence {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

/** The evidence span of chunk `c` for the query `weights` (`recall.evidenceAround`, `recall.evidenceJoin`). */
export function evidenceOf(
  snapshot: IndexSnapshot,
  c: ChunkRecord,
  fusion: FusionSettings,
  weights: ReturnType<typeof queryWeights>,
): Evidence {
  const win = evidenceWindow(snapshot, c, fusion.evidenceAround ?? 0);
  const ev = pickEvidence(weights, win.startLine, win.lines, {
    joinRatio: fusion.evidenceJoin ?? 0.4,
    maxLines: Math.min(EVIDENCE_MAX_LINES, win.endLine - win.startLine + 1),
    anchor: [c.startLine - win.startLine, c.startLine - win.startLine + win.own - 1],
  });
  const text = win.lines.slice(ev.startLine - win.startLine, ev.endLine - win.startLine + 1).join('\n');
  // A hard-split piece of one long line: the chunk is one file line.
  return { startLine: ev.startLine, endLine: Math.min(ev.endLine, win.endLine), text };
}

/** What the conflict check sees of a hit: its evidence, entry, date and supersession. */
export function conflictViewOf(c: ChunkRecord, ev: Evidence, by: readonly string[] | undefined): ConflictView {
  return {
    path: c.path,
    startLine: ev.startLine,
    text: ev.text,
    headingPath: c.headingPath,
    ...(c.entry ? { entryId: c.entry.id } : {}),
    ...(c.date ? { date: c.date } : {}),
    ...(c.supersedes ? { supersedes: c.supersedes } : {}),
    ...(c.compatibleWith ? { compatibleWith: c.compatibleWith } : {}),
    ...(by ? { supersededBy: by } : {}),
  };
}

/** A hit as a context-block item: its evidence, fused score, the lines around it, date and code label. */
export function packedItemOf(
  snapshot: IndexSnapshot,
  c: ChunkRecord,
  ev: Evidence,
  score: number,
  codeCheck: RecallOptions['codeCheck'],
): ContextItem {
  return {
    path: c.path,
    startLine: ev.startLine,
    endLine: ev.endLine,
    headingPath: c.headingPath,
    text: ev.text,
    score,
    around: linesAround(snapshot, c, c.startLine, c.endLine, PACK_AROUND),
    ...(c.date ? { date: c.date.slice(0, 10) } : {}),
    ...(codeLabel(codeCheck?.statusOf(c)) ? { label: codeLabel(codeCheck?.statusOf(c))! } : {}),
  };
}

/** One hit: its chunk, fused scores, evidence, who supersedes it and the newer statement of it. */
export interface Hit {
  readonly c: ChunkRecord;
  readonly f: Fused;
  readonly ev: Evidence;
  readonly by: readonly string[] | undefined;
  readonly newer: Restatement | undefined;
}

/** What every hit of one recall shares. */
export interface HitScope {
  readonly snapshot: IndexSnapshot;
  readonly query: string;
  readonly options: RecallOptions;
  /** The query's tokens as the plan read them (`tokenize(query)` when empty). */
  readonly qTokens: readonly string[];
  /** Entry id → the ids that supersede it (service/recall/truth.ts `supersededIds`). */
  readonly superseded: ReadonlyMap<string, readonly string[]>;
  /** YYYY-MM-DD, for `validUntil` and `reviewAfter`. */
  readonly today: string;
}

/** `x` to six decimals (null stays null). */
const round = (x: number | null) => (x === null ? null : Number(x.toFixed(6)));

/**
 * A hit as a recall result: evidence lines, the context span (`options.context`), a bounded snippet
 * (lines that look like injected instructions marked), rounded scores, and what is known of its truth.
 */
export function resultOf({ c, f, ev, by, newer }: Hit, s: HitScope): RecallResult {
  const { snapshot, options } = s;
  const expired = c.validUntil || c.reviewAfter ? expiryOf(c, s.today) : undefined;
  // Memory is data: lines that look like injected instructions are labelled (core/agent-text.ts).
  const injection = injectionIn(ev.text, ev.startLine);
  const span =
    options.context !== undefined ? contextSpan(snapshot, c, ev.startLine, ev.endLine, options.context) : undefined;
  return {
    path: c.path,
    startLine: ev.startLine,
    endLine: ev.endLine,
    chunk: { startLine: c.startLine, endLine: c.endLine },
    ...(span ? { contextSpan: { ...span, text: forAgent(span.text) } } : {}),
    headingPath: [...c.headingPath],
    kind: c.kind,
    snippet: excerptForAgent(
      makeSnippet(
        injection.length ? markInjection(ev.text) : ev.text,
        s.qTokens.length ? s.qTokens : tokenize(s.query),
        options.snippetChars ?? 320,
      ),
      injection.length > 0,
    ),
    score: round(f.score)!,
    scores: { keyword: round(f.kw), vector: round(f.vec) },
    ...(c.entry ? { entry: { id: c.entry.id, type: c.entry.type, tags: [...c.entry.tags] } } : {}),
    ...(hiddenReason(c, s.superseded) ? { hidden: hiddenReason(c, s.superseded)! } : {}),
    ...(by ? { supersededBy: [...by] } : {}),
    ...(newer ? { newerStatement: { ...newer } } : {}),
    ...(expired ? { expired } : {}),
    ...(injection.length ? { injection } : {}),
    ...(options.explain
      ? {
          explain: {
            keywordRank: f.kwRank,
            keywordScore: round(f.kw),
            vectorRank: f.vecRank,
            vectorScore: round(f.vec),
          },
        }
      : {}),
  };
}

/**
 * The lines an evidence span may cover: the chunk's own, plus up to `around` consecutive chunk lines
 * of the same file before and after it (stops at a line no chunk holds, e.g. a heading), so a span
 * anchored in the chunk can reach the answer that follows its matching last line.
 */
function evidenceWindow(
  snapshot: IndexSnapshot,
  c: ChunkRecord,
  around: number,
): { startLine: number; endLine: number; lines: string[]; own: number } {
  const own = c.text.split('\n');
  const n = own.length;
  // A hard-split piece of one long line (its text lines do not map onto file lines) keeps its own.
  if (around <= 0 || c.endLine - c.startLine + 1 !== n)
    return { startLine: c.startLine, endLine: c.endLine, lines: own, own: n };
  const byLine = new Map(linesAround(snapshot, c, c.startLine, c.endLine, around).map((l) => [l.line, l.text]));
  let from = c.startLine;
  while (from > c.startLine - around && byLine.has(from - 1)) from--;
  let to = c.endLine;
  while (to < c.endLine + around && byLine.has(to + 1)) to++;
  const lines: string[] = [];
  for (let l = from; l <= to; l++)
    lines.push(l >= c.startLine && l <= c.endLine ? own[l - c.startLine]! : byLine.get(l)!);
  return { startLine: from, endLine: to, lines, own: n };
}
