// Supersession and expiry at recall time. An entry whose id a newer entry lists in `supersedes:` is
// hidden from recall (shown with `--all`, marked `supersededBy`); an entry past its `valid_until` or
// `review_after` date ranks down (score × EXPIRED_FACTOR) and is marked `expired`. The ranking
// priors (service/recall/priors.ts) apply both; this file says what is superseded and what has expired.
// Nothing here writes. Pure over the chunk table; deps: core (idKey), ./index-manager types.
import { idKey } from '../../core/workspace.js';
import type { ChunkRecord, ChunkSource, IndexSnapshot } from '../../engine/chunks/index-manager.js';

/** Score multiplier of an expired entry's hits before ranking (keyword, vector and fusion lists). */
export const EXPIRED_FACTOR = 0.5;

/** Which front-matter date made an entry expire, and the date as written (YYYY-MM-DD…). */
export interface Expiry {
  readonly field: 'valid_until' | 'review_after';
  readonly date: string;
}

/** The date fields of an entry, as chunk records and parsed documents both carry them. */
export interface DatedEntry {
  readonly validUntil?: string;
  readonly reviewAfter?: string;
}

/** @returns `YYYY-MM-DD` of `now` (UTC), the granularity every expiry check uses. */
export function dayOf(now: Date | string): string {
  return (typeof now === 'string' ? now : now.toISOString()).slice(0, 10);
}

/**
 * @returns the first date of `e` that lies before `today` (YYYY-MM-DD): `valid_until` first, then
 * `review_after`; undefined when neither is past. A date is valid through its own day. Dates that
 * are not ISO (`soon`) never expire (the schema rule reports them).
 */
export function expiryOf(e: DatedEntry, today: string): Expiry | undefined {
  for (const [field, value] of [
    ['valid_until', e.validUntil],
    ['review_after', e.reviewAfter],
  ] as const) {
    if (!value || !/^\d{4}-\d{2}-\d{2}/.test(value)) continue;
    if (value.slice(0, 10) < today) return { field, date: value.slice(0, 10) };
  }
  return undefined;
}

const superseded = new WeakMap<object, ReadonlyMap<string, readonly string[]>>();

/**
 * Superseded entry id → ids of the entries that supersede it, over every chunk of `snapshot`
 * (computed once per chunk table). An entry that names its own id is ignored (validate reports it).
 */
export function supersededIds(snapshot: Pick<IndexSnapshot, 'chunks'>): ReadonlyMap<string, readonly string[]> {
  const hit = superseded.get(snapshot.chunks);
  if (hit) return hit;
  const m = new Map<string, string[]>();
  const seen = new Set<string>();
  const chunks: ChunkSource = snapshot.chunks;
  for (const c of chunks.superseding ? chunks.superseding() : chunks.values()) {
    if (!c.supersedes?.length || !c.entry || seen.has(c.path)) continue;
    seen.add(c.path);
    for (const id of c.supersedes) {
      // Keyed in the comparison form of ids, so an id and its list entry in two Unicode forms match (B55).
      const key = idKey(id);
      if (key === idKey(c.entry.id)) continue;
      const by = m.get(key) ?? [];
      if (!by.includes(c.entry.id)) by.push(c.entry.id);
      m.set(key, by);
    }
  }
  superseded.set(snapshot.chunks, m);
  return m;
}

/** @returns the ids that supersede chunk `c`'s entry, or undefined when nothing does. */
export function supersededBy(
  c: ChunkRecord,
  map: ReadonlyMap<string, readonly string[]>,
): readonly string[] | undefined {
  return c.entry ? map.get(idKey(c.entry.id)) : undefined;
}
