// Versions of one thing in date order: when recall judges several hits to be statements of the same
// rule, fact or decision (restatement.ts: each restated hit points at the newest statement of it),
// every later one ranks above every earlier one, not only the newest above the rest. A thing often
// has several versions among the hits ("start attribute names with 's_'", a week later "'t_'", then
// "'xt_'"), and the newest statement the judge found may name the subject without stating a value
// ("we leverage project management platforms"); ranked by score, an older version then still sits
// above the current one. The versions of a thing take the rank slots they already hold, newest
// first, so the hits around them keep their places (pulling versions up beside the newest pushes
// other answers out of the first results).
// Pure; no dependencies.

/**
 * `hits` (best first) with the members of each group of versions in date order, newest first, over
 * the slots the group's members hold. A group is a hit and every hit linked to it, transitively
 * (a restated hit and the hit holding its newer statement). Each slot keeps its score, so scores stay
 * in rank order; a member moved to another slot takes that slot's score. Members of the same day
 * keep their order, and so does every hit outside a group.
 * @param links hit ref → the key of its newer statement (the ref of the hit holding it, or any key
 *   naming the statement when no hit holds it).
 * @param dayOf YYYY-MM-DD of a hit ('' when undated: it ranks as the oldest).
 * @param within only the first `within` hits take part (the results returned): a version below the
 *   cut never trades places with one above it, so the set returned stays the same.
 */
export function versionsNewestFirst<T extends { ref: string; score: number }>(
  hits: readonly T[],
  links: ReadonlyMap<string, string>,
  dayOf: (ref: string) => string,
  within = hits.length,
): T[] {
  if (links.size === 0) return [...hits];
  const parent = new Map<string, string>();
  const root = (k: string): string => {
    let r = k;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  for (const [ref, key] of links) {
    const a = root(ref);
    const b = root(key);
    if (a !== b) parent.set(a, b);
  }
  const held = new Set(links.values());
  const slots = new Map<string, number[]>();
  hits.forEach((h, i) => {
    if (i >= within || (!links.has(h.ref) && !held.has(h.ref))) return;
    const g = root(h.ref);
    slots.set(g, [...(slots.get(g) ?? []), i]);
  });
  const out = [...hits];
  for (const at of slots.values()) {
    if (at.length < 2) continue;
    const members = [...at].sort((i, j) => {
      const di = dayOf(hits[i]!.ref);
      const dj = dayOf(hits[j]!.ref);
      return di < dj ? 1 : di > dj ? -1 : i - j;
    });
    at.forEach((slot, k) => {
      const h = hits[members[k]!]!;
      const score = hits[slot]!.score;
      out[slot] = h.score === score ? h : { ...h, score };
    });
  }
  return out;
}
