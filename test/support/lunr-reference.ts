// lunr's own forms of a keyword index, for tests only: lunr's JSON (the vector-space index plus our
// binary segment, base64) and lunr's \`index.query\`, the reference our BM25 scorer is tested against.
// The product never builds or loads lunr's index (it is the slow part and a large JSON.parse).
import lunr from 'lunr';
import { MemoryError } from '../../src/core/errors.js';
import {
  LexicalIndex,
  parseQuery,
  type LexicalDoc,
  type LexicalHit,
  type ParsedQuery,
} from '../../src/indexes/lexical/lexical.js';
import { buildSegment } from '../../src/indexes/lexical/lexical-build.js';
import { decodeSegment } from '../../src/indexes/lexical/lexical-codec.js';
import { Scorer } from '../../src/indexes/lexical/lexical-scorer.js';
import { compareHits } from '../../src/indexes/fusion/ranked.js';
import {
  corrupt,
  FIELD_NAMES,
  isStringArray,
  View,
  type SegmentData,
} from '../../src/indexes/lexical/lexical-segment.js';

/** Version of {@link lunrJson}'s shape. */
export const LEXICAL_FORMAT_VERSION = 2;
const FORMAT_TAG = 'gitmem-lexical';

type Posting = Record<string, Record<string, unknown>> & { _index: number };

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** A keyword index together with lunr's vector-space index over the same docs. */
export interface LunrReference {
  readonly index: LexicalIndex;
  readonly lunr: lunr.Index;
}

/** Build both: our index and lunr's (same builder configuration, same tokens). */
export function buildWithLunr(docs: readonly LexicalDoc[]): LunrReference {
  return { index: LexicalIndex.build(docs), lunr: buildSegment(docs).builder.build() };
}

/**
 * A JSON-serialisable value for {@link loadLunrJson}.
 */
export function lunrJson(ref: LunrReference): object {
  const d = ref.index.segment.data;
  return {
    format: FORMAT_TAG,
    version: LEXICAL_FORMAT_VERSION,
    lunrVersion: lunr.version,
    size: ref.index.size,
    vocab: d.raw.toArray(),
    // '' = same as the raw token (most tokens), which keeps the file small.
    stems: d.raw.toArray().map((r, i) => (d.rawStem.at(i) === r ? '' : d.rawStem.at(i))),
    index: ref.lunr.toJSON(),
    segment: toBase64(ref.index.toBinary()),
  };
}

/**
 * Restore an index saved by {@link lunrJson} (the parsed JSON value).
 * @throws MemoryError `index.corrupt` when the shape, format version or lunr version is wrong.
 */
export function loadLunrJson(json: unknown): LunrReference {
  if (typeof json !== 'object' || json === null) throw corrupt('not an object');
  const j = json as Record<string, unknown>;
  if (j.format !== FORMAT_TAG) throw corrupt('unknown format');
  if (j.version !== LEXICAL_FORMAT_VERSION)
    throw corrupt(`format version ${String(j.version)} is not ${LEXICAL_FORMAT_VERSION}`);
  if (j.lunrVersion !== lunr.version) throw corrupt(`built by lunr ${String(j.lunrVersion)}, this is ${lunr.version}`);
  const size = j.size;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) throw corrupt('bad size');
  if (!isStringArray(j.vocab) || !isStringArray(j.stems) || j.vocab.length !== j.stems.length) {
    throw corrupt('bad vocabulary');
  }
  const idx = j.index as Record<string, unknown> | null;
  if (typeof idx !== 'object' || idx === null) throw corrupt('missing lunr index');
  if (idx.version !== lunr.version) throw corrupt('lunr version mismatch');
  if (!isStringArray(idx.fields) || idx.fields.join() !== FIELD_NAMES.join()) throw corrupt('unexpected fields');
  if (!Array.isArray(idx.fieldVectors) || idx.fieldVectors.length !== size * FIELD_NAMES.length) {
    throw corrupt('field vectors do not match the document count');
  }
  for (const fv of idx.fieldVectors) {
    if (!Array.isArray(fv) || typeof fv[0] !== 'string' || !Array.isArray(fv[1])) throw corrupt('bad field vector');
  }
  if (!Array.isArray(idx.invertedIndex)) throw corrupt('bad inverted index');
  for (const e of idx.invertedIndex) {
    if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[1] !== 'object' || e[1] === null) {
      throw corrupt('bad posting');
    }
    const posting = e[1] as Record<string, unknown>;
    if (typeof posting._index !== 'number') throw corrupt('bad posting');
    for (const f of FIELD_NAMES)
      if (typeof posting[f] !== 'object' || posting[f] === null) throw corrupt('bad posting');
  }
  if (!isStringArray(idx.pipeline)) throw corrupt('bad pipeline');
  if (typeof j.segment !== 'string') throw corrupt('missing segment');
  let index: lunr.Index;
  try {
    index = lunr.Index.load(idx);
  } catch (e) {
    throw corrupt('lunr could not load it', e);
  }
  let data: SegmentData;
  try {
    data = decodeSegment(fromBase64(j.segment));
  } catch (e) {
    throw e instanceof MemoryError ? e : corrupt('bad segment', e);
  }
  if (data.refs.length !== size) throw corrupt('segment does not match the document count');
  const inverted = (index as unknown as { invertedIndex: Record<string, Posting> }).invertedIndex;
  if (
    data.terms.length !== Object.keys(inverted).length ||
    data.terms.toArray().some((t) => inverted[t] === undefined)
  ) {
    throw corrupt('segment terms do not match the lunr index');
  }
  return { index: LexicalIndex.fromBinary(fromBase64(j.segment)), lunr: index };
}

/**
 * The same search as {@link LexicalIndex.search} executed by lunr's own `index.query` (slower: it scores every matching document
 * through lunr's Set/MatchData machinery). Kept as the reference that our scorer is tested against.
 */
export function searchWithLunr(ref: LunrReference, query: ParsedQuery | string, limit?: number): LexicalHit[] {
  const index = ref.lunr;
  const parsed = typeof query === 'string' ? parseQuery(query) : query;
  if (!index || parsed.empty || ref.index.size === 0) return [];
  const scorer = new Scorer([new View(ref.index.segment, undefined)]);
  const plan = scorer.plan(parsed);
  if (!plan) return [];
  const view = scorer.views[0]!;
  const results = index.query((q) => {
    for (const [term, boost] of plan.scoring) {
      q.term(term, {
        usePipeline: false,
        boost,
        presence: lunr.Query.presence.OPTIONAL,
        wildcard: lunr.Query.wildcard.NONE,
      });
    }
  });
  const hits = results
    .filter((r) =>
      plan.constraints.every(
        (c) => scorer.satisfies(view, ref.index.segment.id(r.ref)!, c.parts) === (c.presence === 'required'),
      ),
    )
    .map((r) => ({ ref: r.ref, score: r.score }));
  hits.sort(compareHits);
  const max = limit === undefined ? Infinity : Math.max(0, Math.floor(Number(limit) || 0));
  return hits.slice(0, max);
}
