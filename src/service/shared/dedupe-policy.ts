// The dedupe policy, one rule for every path that asks "is this memory already known?": `remember`
// (CLI, and MCP memory_remember through it), complete-task (ACE), `gitmem dedupe`, sync's incoming
// checks, the editor's near-duplicate diagnostic and "move this bullet into an entry" action, the
// merges `gitmem dream` proposes ({@link repeatOf}, for two documents of the workspace), and the
// guidance complete-task's curator would add to the playbook ({@link guidanceRepeats}).
//   1. Candidates are live entries: kind `entry`, of the same type (any type when the writer names
//      none), not themselves marked `duplicate_of`, not `superseded` or `archived`; never the
//      entry itself, one it supersedes or one that supersedes it ({@link linkedForDedupe}).
//   2. A candidate is a duplicate when its text has the same dedupe normal form ('same-text'), or
//      when the token Jaccard similarity reaches `dedupe.jaccard` ('jaccard') and the two do not
//      conflict: a near copy that changes a number, a negation or a value is a possible conflict
//      (service/shared/conflict.ts), not a duplicate.
//   3. By meaning (with a model): a new text of `type` repeats a live entry of that type (rule 1)
//      when the cosine of its embedding with that entry's, already embedded, reaches `dedupe.cosine`
//      and the two do not conflict ({@link findDuplicateByMeaning}). `remember` asks it of a new
//      text, `gitmem dedupe` of each entry, and sync of each entry it brought in
//      (service/git-ops/incoming-checks.ts, which leaves out the entry itself); both pass the entry's
//      parsed document (`own`), so its own stored vector is read. The vectors are the
//      ones the index stores ({@link StoredVectors}); only a text with none is embedded, and the
//      editor, which must not wait for an embedding, asks {@link meaningMatch} and
//      {@link nearestByMeaning} with stored vectors only and the rule by text where there are none.
// deps: core, indexes (tokenizer, unit vectors), engine (embed-text, chunk records; semantic through the context), service/shared.
import { bodyOf, type MemoryDoc } from '../../core/document.js';
import { sha256 } from '../../core/hash.js';
import { namesId, type MemoryWorkspace } from '../../core/workspace.js';
import { embedText } from '../../engine/vectors/embed-text.js';
import { docRecords } from '../../engine/chunks/index-manager.js';
import { tokenize } from '../../core/tokenize.js';
import { dot, meanUnitVector } from '../../indexes/vector/vector-mean.js';
import { compareClaims } from './conflict.js';
import type { MemoryContext } from './memory-context.js';
import { normalise as normaliseForDedupe } from '../../core/words.js';

/** A text prepared for comparison: as written, its dedupe normal form and its token set. */
export interface DedupeText {
  readonly text: string;
  readonly norm: string;
  readonly tokens: ReadonlySet<string>;
}

/** Why two texts are duplicates, and how similar they are (1 for the same text). */
export interface DuplicateMatch {
  readonly reason: 'same-text' | 'jaccard';
  readonly similarity: number;
}

/** Prepare `text` for {@link duplicateMatch} (normalise once, tokenise once). */
export function dedupeText(text: string): DedupeText {
  return { text, norm: normaliseForDedupe(text), tokens: new Set(tokenize(text)) };
}

/** Each document's body prepared once (documents are immutable; a write compares with the same candidates again). */
const BODIES = new WeakMap<MemoryDoc, DedupeText>();

function dedupeBody(d: MemoryDoc): DedupeText {
  let t = BODIES.get(d);
  if (!t) BODIES.set(d, (t = dedupeText(bodyOf(d))));
  return t;
}

/** Rule 1: is `d` an entry new text of `type` may duplicate? (`type` undefined: any type.) */
export function isDedupeCandidate(d: MemoryDoc, type: string | undefined): boolean {
  if (d.kind !== 'entry' || d.meta.duplicateOf) return false;
  if (d.meta.status === 'superseded' || d.meta.status === 'archived') return false;
  return type === undefined || d.meta.type === type;
}

/**
 * Rule 1, for a pair: `a` and `b` are never compared when they are the same document or one
 * supersedes the other (a correction repeats its subject).
 */
export function linkedForDedupe(a: MemoryDoc, b: MemoryDoc): boolean {
  return a.path === b.path || namesId(a.meta.supersedes, b.meta.id) || namesId(b.meta.supersedes, a.meta.id);
}

/**
 * Rule 2: does `incoming` repeat `existing`? Empty texts (normal form '') never match.
 * @param jaccard the `dedupe.jaccard` threshold, 0–1.
 */
export function duplicateMatch(
  existing: DedupeText,
  incoming: DedupeText,
  jaccard: number,
): DuplicateMatch | undefined {
  if (!existing.norm || !incoming.norm) return undefined;
  if (existing.norm === incoming.norm) return { reason: 'same-text', similarity: 1 };
  let inter = 0;
  for (const t of incoming.tokens) if (existing.tokens.has(t)) inter++;
  const union = existing.tokens.size + incoming.tokens.size - inter;
  const similarity = union === 0 ? 1 : inter / union;
  if (similarity < jaccard) return undefined;
  if (compareClaims(existing.text, incoming.text).reasons.length > 0) return undefined;
  return { reason: 'jaccard', similarity: Number(similarity.toFixed(3)) };
}

/**
 * The first candidate among `docs` that `incoming` repeats (rules 1 and 2), in `docs` order.
 * @param textOf the text of a document that is compared (default: its body).
 */
export function findDuplicate(
  docs: Iterable<MemoryDoc>,
  incoming: { readonly text: string; readonly type?: string | undefined },
  jaccard: number,
  textOf: (d: MemoryDoc) => string = bodyOf,
): { readonly doc: MemoryDoc; readonly match: DuplicateMatch } | undefined {
  const mine = dedupeText(incoming.text);
  if (!mine.norm) return undefined;
  for (const d of docs) {
    if (!isDedupeCandidate(d, incoming.type)) continue;
    const match = duplicateMatch(textOf === bodyOf ? dedupeBody(d) : dedupeText(textOf(d)), mine, jaccard);
    if (match) return { doc: d, match };
  }
  return undefined;
}

/**
 * The vectors the rule by meaning reads (engine/vectors/semantic.ts SemanticIndex.storedVector): a vector the
 * index already stores, read now, never embedded. A key names the text it was embedded from
 * (engine/vectors/embed-text.ts), so a vector found under a document's keys is that document's as it is now.
 */
export interface StoredVectors {
  storedVector(key: string): Float32Array | undefined;
}

/** Embedding keys of a document's chunks, as the index computes them (documents are immutable). */
const KEYS = new WeakMap<MemoryDoc, readonly string[]>();

function vectorKeysOfDoc(d: MemoryDoc): readonly string[] {
  let keys = KEYS.get(d);
  if (!keys) {
    keys = docRecords(d).flatMap((r) => (r.vkey ? [r.vkey] : []));
    KEYS.set(d, keys);
  }
  return keys;
}

/**
 * Rule 3, the entry's side: the vector of entry `d` from the index, without embedding — its chunks'
 * stored vectors, their normalised mean when it has several. Undefined when a chunk has no stored
 * vector (not indexed since it changed, or no model).
 */
function storedEntryVector(vectors: StoredVectors, d: MemoryDoc): Float32Array | undefined {
  const list: Float32Array[] = [];
  for (const k of vectorKeysOfDoc(d)) {
    const v = vectors.storedVector(k);
    if (!v) return undefined;
    list.push(v);
  }
  return meanUnitVector(list);
}

/** The form a text is compared in by meaning: as entries are embedded (title line, then the text). */
export function probeText(incoming: { readonly text: string; readonly title: string }): string {
  return embedText({ text: `\n${incoming.text}`.trim(), headingPath: [], title: incoming.title });
}

/**
 * Rule 3, the incoming side, from stored vectors only: `own`'s stored vector when the text is that
 * entry's, else the vector stored under the text's own embedding key; undefined when there is none.
 */
export function storedProbe(
  vectors: StoredVectors,
  incoming: { readonly text: string; readonly title: string; readonly own?: MemoryDoc },
): Float32Array | undefined {
  return (
    (incoming.own && storedEntryVector(vectors, incoming.own)) ?? vectors.storedVector(sha256(probeText(incoming)))
  );
}

/** Rule 3, the pair: the cosine of `probe` with the closest stored chunk vector of `existing`. */
function closest(vectors: StoredVectors, probe: Float32Array, existing: MemoryDoc): number | undefined {
  let best: number | undefined;
  for (const k of vectorKeysOfDoc(existing)) {
    const v = vectors.storedVector(k);
    if (!v) continue;
    const score = dot(v, probe);
    if (best === undefined || score > best) best = score;
  }
  return best;
}

/**
 * Rule 3 for one pair, from stored vectors only (no await, never embeds): does the text `incoming`,
 * whose vector is `probe`, repeat `existing` by meaning — cosine ≥ `cosine` and no claim conflict?
 */
export function meaningMatch(
  vectors: StoredVectors,
  existing: MemoryDoc,
  incoming: { readonly text: string; readonly probe: Float32Array },
  cosine: number,
): { readonly reason: 'meaning'; readonly similarity: number } | undefined {
  if (cosine >= 1) return undefined;
  const score = closest(vectors, incoming.probe, existing);
  if (score === undefined || score < cosine) return undefined;
  if (compareClaims(bodyOf(existing), incoming.text).reasons.length > 0) return undefined;
  return { reason: 'meaning', similarity: Number(score.toFixed(3)) };
}

/**
 * Rule 3 over `candidates`, from stored vectors only: the closest one (its cosine ≥ `cosine`) unless
 * it conflicts with `incoming.text`, else undefined.
 */
export function nearestByMeaning(
  vectors: StoredVectors,
  candidates: Iterable<MemoryDoc>,
  incoming: { readonly text: string; readonly probe: Float32Array },
  cosine: number,
): { readonly doc: MemoryDoc; readonly similarity: number } | undefined {
  let best: { doc: MemoryDoc; score: number } | undefined;
  for (const d of candidates) {
    const score = closest(vectors, incoming.probe, d);
    if (score !== undefined && (!best || score > best.score)) best = { doc: d, score };
  }
  if (!best || cosine >= 1 || best.score < cosine || compareClaims(bodyOf(best.doc), incoming.text).reasons.length > 0)
    return undefined;
  return { doc: best.doc, similarity: Number(best.score.toFixed(3)) };
}

/**
 * The live same-type entry `incoming` repeats by meaning (rule 3), or undefined (no semantic half,
 * `dedupe.cosine` 1, no candidate, none close enough, or the closest conflicts). The candidates'
 * vectors are the ones the index stores; the incoming text's is `own`'s stored vector when it is an
 * entry of the workspace indexed as it is now, else embedded now (one text).
 */
export async function findDuplicateByMeaning(
  ctx: Pick<MemoryContext, 'semantic' | 'config'>,
  ws: MemoryWorkspace,
  incoming: { readonly text: string; readonly type: string; readonly title: string; readonly own?: MemoryDoc },
  /** Entries never compared with (by path). */
  exclude?: (path: string) => boolean,
): Promise<{ readonly id: string; readonly path: string; readonly similarity: number } | undefined> {
  const { semantic, config } = ctx;
  const { text, type } = incoming;
  if (!semantic || config.dedupe.cosine >= 1) return undefined;
  const candidates = ws.docs().filter((d) => isDedupeCandidate(d, type) && !exclude?.(d.path));
  if (!candidates.some((d) => vectorKeysOfDoc(d).length > 0)) return undefined;
  await semantic.start();
  const probe = storedProbe(semantic, incoming) ?? (await semantic.vectorOf(probeText(incoming)));
  if (!probe) return undefined;
  const near = nearestByMeaning(semantic, candidates, { text, probe }, config.dedupe.cosine);
  return near && { id: near.doc.meta.id ?? near.doc.path, path: near.doc.path, similarity: near.similarity };
}

/** Text prepared for rule 2 per parsed document (documents are immutable: a new parse is a new key). */
const TEXTS = new WeakMap<MemoryDoc, DedupeText>();

/** {@link dedupeText} of a document's body, prepared once per parsed document. */
export function dedupeTextOfDoc(d: MemoryDoc): DedupeText {
  let t = TEXTS.get(d);
  if (!t) {
    t = dedupeText(bodyOf(d));
    TEXTS.set(d, t);
  }
  return t;
}

/**
 * Rules 1–3 for two documents of the workspace, with stored vectors only (no await, never embeds):
 * does `newer` repeat `older`? Both live entries of one type (rule 1; dreams also merge playbook
 * entries, compared when both are active and not marked `duplicate_of`), never a pair linked by
 * `supersedes`; then the rule by text, then by meaning when `vectors` hold both as they are now.
 */
export function repeatOf(
  older: MemoryDoc,
  newer: MemoryDoc,
  thresholds: { readonly jaccard: number; readonly cosine: number },
  vectors?: StoredVectors,
): DuplicateMatch | { readonly reason: 'meaning'; readonly similarity: number } | undefined {
  if (older.kind !== newer.kind || linkedForDedupe(older, newer)) return undefined;
  const live = (d: MemoryDoc) =>
    d.kind === 'playbook' ? isPlaybookCandidate(d) : isDedupeCandidate(d, older.meta.type);
  if (!live(older) || !live(newer)) return undefined;
  const mine = dedupeTextOfDoc(newer);
  const byText = duplicateMatch(dedupeTextOfDoc(older), mine, thresholds.jaccard);
  if (byText || !vectors || !mine.norm) return byText;
  const probe = storedEntryVector(vectors, newer);
  return probe ? meaningMatch(vectors, older, { text: mine.text, probe }, thresholds.cosine) : undefined;
}

/** Rule 1 for the playbook: an active playbook entry not marked `duplicate_of`. */
function isPlaybookCandidate(d: MemoryDoc): boolean {
  return d.kind === 'playbook' && d.meta.active !== false && !d.meta.duplicateOf;
}

/** The playbook entry a guidance text repeats, and by which rule. */
export interface GuidanceMatch {
  readonly id: string;
  readonly path: string;
  readonly reason: 'same-text' | 'jaccard' | 'meaning';
  readonly similarity: number;
}

/** Guidance texts' vectors for {@link guidanceRepeats}, by text. */
export type GuidanceProbes = ReadonlyMap<string, Float32Array>;

/**
 * Rules 1–3 for the guidance one task proposes for the playbook, answered synchronously (the probes
 * are embedded before, {@link guidanceProbes}): complete-task passes it to the pure curator
 * (ace/curator.ts CurateInput.repeats), which keeps no similarity rule of its own.
 * - `of(text, skip)`: the first live playbook entry ({@link isPlaybookCandidate}, none whose id is in
 *   `skip`) the text repeats by text (rule 2, against the entry's body), else the closest by meaning
 *   (rule 3: its probe against the entries' stored vectors); undefined when none.
 * - `between(earlier, text)`: do two guidance texts of the task repeat each other (rule 2, else the
 *   cosine of their probes ≥ `dedupe.cosine` with no claim conflict)?
 */
export function guidanceRepeats(
  docs: Iterable<MemoryDoc>,
  thresholds: { readonly jaccard: number; readonly cosine: number },
  meaning?: { readonly vectors: StoredVectors; readonly probes: GuidanceProbes },
): {
  of(text: string, skip?: ReadonlySet<string>): GuidanceMatch | undefined;
  between(earlier: string, text: string): boolean;
} {
  const candidates = [...docs].filter(isPlaybookCandidate);
  const idOf = (d: MemoryDoc) => d.meta.id ?? d.path;
  return {
    of(text, skip) {
      const mine = dedupeText(text);
      if (!mine.norm) return undefined;
      const live = skip?.size ? candidates.filter((d) => !skip.has(idOf(d))) : candidates;
      for (const d of live) {
        const match = duplicateMatch(dedupeTextOfDoc(d), mine, thresholds.jaccard);
        if (match) return { id: idOf(d), path: d.path, ...match };
      }
      const probe = meaning?.probes.get(text);
      if (!probe) return undefined;
      const near = nearestByMeaning(meaning!.vectors, live, { text, probe }, thresholds.cosine);
      return near && { id: idOf(near.doc), path: near.doc.path, reason: 'meaning', similarity: near.similarity };
    },
    between(earlier, text) {
      if (duplicateMatch(dedupeText(earlier), dedupeText(text), thresholds.jaccard)) return true;
      const a = meaning?.probes.get(earlier);
      const b = meaning?.probes.get(text);
      if (!a || !b || thresholds.cosine >= 1 || dot(a, b) < thresholds.cosine) return false;
      return compareClaims(earlier, text).reasons.length === 0;
    },
  };
}

/**
 * The vectors {@link guidanceRepeats} compares guidance texts by: each text in the form entries are
 * embedded (its title line, then the text), read where the index stores it, else embedded now.
 * Empty without a semantic half or with `dedupe.cosine` 1 (the rule by text alone then).
 */
export async function guidanceProbes(
  ctx: Pick<MemoryContext, 'semantic' | 'config'>,
  texts: readonly { readonly text: string; readonly title: string }[],
): Promise<GuidanceProbes> {
  const probes = new Map<string, Float32Array>();
  const { semantic, config } = ctx;
  if (!semantic || config.dedupe.cosine >= 1) return probes;
  for (const t of texts) {
    if (probes.has(t.text)) continue;
    const v = await semantic.vectorOf(probeText(t));
    if (v) probes.set(t.text, v);
  }
  return probes;
}
