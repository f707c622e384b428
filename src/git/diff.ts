// Memory diff: two snapshots (path → text) compared in memory terms — entries added/removed/changed
// with the front-matter fields that changed and whether the body changed, playbook deltas, CURRENT_STATE
// section changes, daily-note lines added. Pure. The git layer must not import src/parse, so the
// caller injects a {@link DiffParser}; the line diff here is also what the secret scan reads.
import { diffLineOps, splitLines } from '../core/line-diff.js';

/** What the caller's parser says about one memory file. */
export interface DiffDoc {
  /** Document kind (`entry`, `playbook`, `daily`, `current_state`, …). */
  readonly kind: string;
  /** Entry or playbook id. */
  readonly id?: string;
  /** Parsed front-matter mapping. */
  readonly data?: Readonly<Record<string, unknown>>;
  /** Text after the front-matter. */
  readonly body: string;
  /** Named sections (CURRENT_STATE: `Objective`, `Next Action`, …) → their text. */
  readonly sections?: Readonly<Record<string, string>>;
}

/** Parse callback; undefined means "not memory, leave it out". */
export type DiffParser = (path: string, text: string) => DiffDoc | undefined;

export interface FieldChange {
  readonly key: string;
  /** undefined when the key was added. */
  readonly before?: unknown;
  /** undefined when the key was removed. */
  readonly after?: unknown;
}

export interface AddedLine {
  /** 1-based line in the newer text. */
  readonly line: number;
  readonly text: string;
}

/** One memory file that differs. */
export interface MemoryDiffChange {
  readonly path: string;
  readonly kind: string;
  readonly change: 'added' | 'removed' | 'changed';
  readonly id?: string;
  /** Set when a file with the same kind and id was removed elsewhere (a move). */
  readonly renamedFrom?: string;
  /** Front-matter keys that changed, with old and new values. */
  readonly fields: readonly FieldChange[];
  readonly bodyChanged: boolean;
  /** Sections whose text changed (CURRENT_STATE and any kind the parser gives sections for). */
  readonly sections: ReadonlyArray<{ readonly name: string; readonly before?: string; readonly after?: string }>;
  /** Lines added (capped at {@link MAX_LINES}); for daily notes this is the review. */
  readonly linesAdded: readonly AddedLine[];
  readonly linesRemoved: number;
  /** True when more lines were added than listed. */
  readonly truncated: boolean;
}

export interface MemoryDiff {
  readonly changes: readonly MemoryDiffChange[];
  readonly summary: { readonly added: number; readonly removed: number; readonly changed: number };
}

/** Most added lines listed per file. */
export const MAX_LINES = 200;

/**
 * Lines of `after` that are not in `before`, by a line diff (core/line-diff.ts). Past the diff's edit
 * bound (a near-total rewrite) a multiset comparison keeps it linear: a line counts as added when
 * `before` holds fewer copies of it.
 */
export function lineDiff(before: string, after: string): { added: AddedLine[]; removed: number } {
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLineOps(a, b);
  const added: AddedLine[] = [];
  if (ops) {
    let line = 0;
    let removed = 0;
    for (const o of ops) {
      if (o.t === '-') removed++;
      else {
        line++;
        if (o.t === '+') added.push({ line, text: o.s });
      }
    }
    return { added, removed };
  }
  const bag = new Map<string, number>();
  for (const l of a) bag.set(l, (bag.get(l) ?? 0) + 1);
  let common = 0;
  b.forEach((text, j) => {
    const c = bag.get(text) ?? 0;
    if (c > 0) {
      bag.set(text, c - 1);
      common++;
    } else added.push({ line: j + 1, text });
  });
  return { added, removed: a.length - common };
}

/** Stable JSON (sorted keys) for comparing front-matter values. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stable((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}

function fieldChanges(
  a: Readonly<Record<string, unknown>> | undefined,
  b: Readonly<Record<string, unknown>> | undefined,
): FieldChange[] {
  const out: FieldChange[] = [];
  const keys = [...new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])].sort();
  for (const k of keys) {
    const has = (o: typeof a) => o !== undefined && Object.prototype.hasOwnProperty.call(o, k);
    const x = has(a) ? a![k] : undefined;
    const y = has(b) ? b![k] : undefined;
    if (!has(a)) out.push({ key: k, after: y });
    else if (!has(b)) out.push({ key: k, before: x });
    else if (stable(x) !== stable(y)) out.push({ key: k, before: x, after: y });
  }
  return out;
}

function sectionChanges(a: DiffDoc | undefined, b: DiffDoc | undefined): MemoryDiffChange['sections'] {
  const sa = a?.sections ?? {};
  const sb = b?.sections ?? {};
  const names = [...new Set([...Object.keys(sa), ...Object.keys(sb)])];
  const out: Array<{ name: string; before?: string; after?: string }> = [];
  for (const name of names) {
    const x = sa[name];
    const y = sb[name];
    if ((x ?? '').trim() === (y ?? '').trim()) continue;
    out.push({ name, ...(x !== undefined ? { before: x } : {}), ...(y !== undefined ? { after: y } : {}) });
  }
  return out;
}

const norm = (s: string) =>
  s
    .replace(/\r\n?/g, '\n')
    .replace(/^\uFEFF/, '')
    .trim();

/**
 * Compare two snapshots of the memory files.
 * @param before path → text at the older revision.
 * @param after path → text at the newer revision (or the work tree).
 * @returns changes sorted by path; identical texts (line ends aside) are not reported.
 */
export function memoryDiff(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  parse: DiffParser,
): MemoryDiff {
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  const changes: MemoryDiffChange[] = [];
  for (const path of paths) {
    const x = before.get(path);
    const y = after.get(path);
    if (x !== undefined && y !== undefined && norm(x) === norm(y)) continue;
    const da = x !== undefined ? parse(path, x) : undefined;
    const db = y !== undefined ? parse(path, y) : undefined;
    const doc = db ?? da;
    if (!doc) continue;
    const lines = lineDiff(x ?? '', y ?? '');
    const change: MemoryDiffChange['change'] =
      x === undefined || !da ? 'added' : y === undefined || !db ? 'removed' : 'changed';
    changes.push({
      path,
      kind: doc.kind,
      change,
      ...(doc.id !== undefined ? { id: doc.id } : {}),
      fields: change === 'changed' ? fieldChanges(da?.data, db?.data) : [],
      bodyChanged: change === 'changed' ? norm(da?.body ?? '') !== norm(db?.body ?? '') : true,
      sections: change === 'changed' ? sectionChanges(da, db) : [],
      linesAdded: lines.added.slice(0, MAX_LINES),
      linesRemoved: lines.removed,
      truncated: lines.added.length > MAX_LINES,
    });
  }
  // A removed and an added file with the same kind and id is a move: report it once, as a change.
  const removed = changes.filter((c) => c.change === 'removed' && c.id !== undefined);
  const merged: MemoryDiffChange[] = [];
  const drop = new Set<MemoryDiffChange>();
  for (const c of changes) {
    if (c.change !== 'added' || c.id === undefined) continue;
    const r = removed.find((m) => !drop.has(m) && m.kind === c.kind && m.id === c.id);
    if (!r) continue;
    drop.add(r);
    drop.add(c);
    const da = parse(r.path, before.get(r.path)!);
    const db = parse(c.path, after.get(c.path)!);
    const lines = lineDiff(before.get(r.path)!, after.get(c.path)!);
    merged.push({
      ...c,
      change: 'changed',
      renamedFrom: r.path,
      fields: fieldChanges(da?.data, db?.data),
      bodyChanged: norm(da?.body ?? '') !== norm(db?.body ?? ''),
      sections: sectionChanges(da, db),
      linesAdded: lines.added.slice(0, MAX_LINES),
      linesRemoved: lines.removed,
      truncated: lines.added.length > MAX_LINES,
    });
  }
  const final = [...changes.filter((c) => !drop.has(c)), ...merged].sort((p, q) =>
    p.path < q.path ? -1 : p.path > q.path ? 1 : 0,
  );
  return {
    changes: final,
    summary: {
      added: final.filter((c) => c.change === 'added').length,
      removed: final.filter((c) => c.change === 'removed').length,
      changed: final.filter((c) => c.change === 'changed').length,
    },
  };
}
