// Resolving a three-way line merge of memory text: git's diff3 output (`git merge-file --diff3`)
// in, each conflicting hunk settled by the bullet rules, the rest left as a conflict. Pure; no I/O.
//
// Rules for a hunk with base lines O, our lines A and their lines B:
// - lines both sides only added (nothing of O removed on one side) are kept once each, ours first;
// - both sides removing the same non-bullet lines (a placeholder such as `None`) is agreement, unless
//   both put different non-bullet text in their place: one value (a current step, a paragraph) set
//   two ways is a true conflict, not two values (G13);
// - a bullet of O removed or edited on both sides in different ways, or different base lines removed
//   on both sides, is a true conflict and is written back with conflict markers.

/** Marker length used when asking git for diff3 output (long, so memory text never collides). */
export const DIFF3_MARKER_SIZE = 31;

/** A settled text plus the number of hunks that stayed conflicts. */
export interface LineMergeResult {
  readonly text: string;
  readonly conflicts: number;
}

/** Labels written on conflict markers. */
export interface MergeLabels {
  readonly ours: string;
  readonly theirs: string;
}

const BULLET = /^\s*(?:[-*+]|\d+[.)])\s+\S/;
const isBlank = (l: string) => l.trim() === '';
const norm = (l: string) => l.replace(/\r$/, '').trimEnd();

/**
 * Settle one conflicting hunk.
 * @returns the merged lines, or undefined when it is a true conflict.
 */
export function resolveHunk(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
): string[] | undefined {
  const inOurs = new Set(ours.map(norm));
  const inTheirs = new Set(theirs.map(norm));
  const removedOurs = base.filter((l) => !isBlank(l) && !inOurs.has(norm(l))).map(norm);
  const removedTheirs = base.filter((l) => !isBlank(l) && !inTheirs.has(norm(l))).map(norm);
  const baseSet = new Set(base.map(norm));
  const addedOurs = new Set(ours.filter((l) => !isBlank(l) && !baseSet.has(norm(l))).map(norm));
  const addedTheirs = new Set(theirs.filter((l) => !isBlank(l) && !baseSet.has(norm(l))).map(norm));
  let primary = ours;
  let secondary = theirs;
  if (removedOurs.length > 0 && removedTheirs.length > 0) {
    const same = removedOurs.length === removedTheirs.length && removedOurs.every((l) => removedTheirs.includes(l));
    if (!same) return undefined;
    // The same base lines removed on both sides: fine for placeholders, a conflict for a bullet that
    // the two sides replaced differently (edited two ways, or edited on one side and dropped on the other).
    const bulletTouched = removedOurs.some((l) => BULLET.test(l));
    const sameAdditions = addedOurs.size === addedTheirs.size && [...addedOurs].every((l) => addedTheirs.has(l));
    if (bulletTouched && !sameAdditions) return undefined;
    const prose = (added: Set<string>) => [...added].some((l) => !BULLET.test(l));
    if (!sameAdditions && prose(addedOurs) && prose(addedTheirs)) return undefined;
  } else if (removedTheirs.length > 0) {
    primary = theirs;
    secondary = ours;
  }
  const have = new Set(primary.map(norm));
  const extra: string[] = [];
  for (const l of secondary) {
    const n = norm(l);
    if (baseSet.has(n) && !isBlank(l)) continue; // a base line the primary side removed stays removed
    if (!isBlank(l) && have.has(n)) continue; // already there: keep it once
    if (isBlank(l) && (extra.length === 0 || isBlank(extra[extra.length - 1]!))) continue;
    extra.push(l);
    if (!isBlank(l)) have.add(n);
  }
  while (extra.length && isBlank(extra[extra.length - 1]!)) extra.pop();
  if (extra.length === 0) return [...primary];
  // New lines go after the primary side's content, before its trailing blank lines.
  let end = primary.length;
  while (end > 0 && isBlank(primary[end - 1]!)) end--;
  const eol = /\r$/.test(primary[0] ?? secondary[0] ?? '') ? '\r' : '';
  const fixed = extra.map((l) => (eol && !l.endsWith('\r') ? `${l}\r` : l));
  return [...primary.slice(0, end), ...fixed, ...primary.slice(end)];
}

/**
 * Settle the conflict hunks of a diff3-style merge text (markers of {@link DIFF3_MARKER_SIZE}).
 * Lines are split on `\n`; a `\r` stays part of its line. A trailing newline is kept as given.
 */
export function resolveDiff3(text: string, labels: MergeLabels = { ours: 'ours', theirs: 'theirs' }): LineMergeResult {
  const m = DIFF3_MARKER_SIZE;
  const open = '<'.repeat(m);
  const mid = '|'.repeat(m);
  const sep = '='.repeat(m);
  const close = '>'.repeat(m);
  const isMarker = (l: string, mark: string) => l === mark || l.startsWith(`${mark} `) || l === `${mark}\r`;
  const lines = text.split('\n');
  const out: string[] = [];
  let conflicts = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (!isMarker(l, open)) {
      out.push(l);
      continue;
    }
    const ours: string[] = [];
    const base: string[] = [];
    const theirs: string[] = [];
    let part: string[] = ours;
    let j = i + 1;
    for (; j < lines.length; j++) {
      const x = lines[j]!;
      if (isMarker(x, mid)) part = base;
      else if (x === sep || x === `${sep}\r`) part = theirs;
      else if (isMarker(x, close)) break;
      else part.push(x);
    }
    i = j;
    const settled = resolveHunk(base, ours, theirs);
    if (settled) out.push(...settled);
    else {
      conflicts++;
      out.push(`<<<<<<< ${labels.ours}`, ...ours, '=======', ...theirs, `>>>>>>> ${labels.theirs}`);
    }
  }
  return { text: out.join('\n'), conflicts };
}

/** Lines that carry a last-updated time: `> Last updated: T` (working state) and `updated: T` (front-matter). */
const STAMP = /^(> Last updated:|updated:)[ \t]*(\d{4}-\d{2}-\d{2}[^\r]*?)[ \t]*(\r?)$/gm;

/** `b` is at or after `a`: instants when both parse as dates, else string order. */
function laterOrSame(b: string, a: string): boolean {
  const tb = Date.parse(b);
  const ta = Date.parse(a);
  return Number.isFinite(tb) && Number.isFinite(ta) ? tb >= ta : b >= a;
}

/**
 * Make the last-updated stamps agree before a merge: when each version has at most one stamp line of
 * a kind, every version's line is rewritten to the latest of the three times, so two sides that each
 * touched the file never conflict over the time alone. Times compare as instants when both parse
 * (ISO-8601), else as strings.
 */
export function alignStamps(versions: readonly [string, string, string]): [string, string, string] {
  const out: [string, string, string] = [versions[0], versions[1], versions[2]];
  for (const prefix of ['> Last updated:', 'updated:']) {
    const found = versions.map((v) => [...v.matchAll(STAMP)].filter((x) => x[1] === prefix));
    if (found.some((f) => f.length > 1)) continue;
    const values = found.flatMap((f) => (f[0] ? [f[0][2]!] : []));
    if (values.length < 2) continue;
    // Compare instants, not strings: `…:56Z` sorts after `…:56+00:00` as text although it is the
    // same second. A tie goes to a side's own value (base comes first), keeping its format.
    const latest = values.reduce((a, b) => (laterOrSame(b, a) ? b : a));
    for (let i = 0; i < 3; i++) {
      if (!found[i]![0]) continue;
      out[i] = out[i]!.replace(STAMP, (all, p: string, _v: string, cr: string) =>
        p === prefix ? `${p} ${latest}${cr}` : all,
      );
    }
  }
  return out;
}

/** The `created:` front-matter line of an entry (one per file; the YAML key at the start of a line). */
const CREATED = /^created:[ \t]*(\d{4}-\d{2}-\d{2}[^\r\n]*?)[ \t]*(\r?)$/gm;

/**
 * The same entry written in two clones (the same text remembered by two people gives the same id and
 * file): the base has no `created:` line and each side has its own time, the seconds at which each
 * person wrote it. Both sides' lines are rewritten to the earlier time (when the fact was first
 * recorded), so the add/add merge does not stop on the time alone. Anything else is left as it is:
 * a `created:` changed on one side of an existing entry merges as usual.
 */
export function alignCreated(versions: readonly [string, string, string]): [string, string, string] {
  const out: [string, string, string] = [versions[0], versions[1], versions[2]];
  const found = versions.map((v) => [...v.matchAll(CREATED)]);
  if (found[0]!.length !== 0 || found[1]!.length !== 1 || found[2]!.length !== 1) return out;
  const [o, t] = [found[1]![0]![1]!, found[2]![0]![1]!];
  const earliest = laterOrSame(o, t) ? t : o;
  for (const i of [1, 2])
    out[i] = out[i]!.replace(CREATED, (_all, _v: string, cr: string) => `created: ${earliest}${cr}`);
  return out;
}
