// Three-way merge of a front-matter block, key by key, on its text (the git layer never parses
// YAML): a key changed on one side takes that side; changed on both sides to the same text is kept;
// block lists (`key:` + `- item` lines) and flow lists (`key: [a, b]`) merge as sets (items added on
// either side kept once, items removed on either side removed); anything else changed two ways is a
// true conflict. Pure; no I/O.

/** One top-level key with its continuation lines. */
interface KeyBlock {
  readonly key: string;
  readonly lines: readonly string[];
}

export interface FrontMatterMerge {
  readonly lines: string[];
  readonly conflicts: number;
}

const KEY = /^([A-Za-z0-9_][\w.-]*)\s*:(.*)$/;

/** @returns the key blocks of front-matter `lines`, or undefined when a key repeats (then merge it as text). */
function keyBlocks(lines: readonly string[]): { preamble: string[]; blocks: KeyBlock[] } | undefined {
  const preamble: string[] = [];
  const blocks: { key: string; lines: string[] }[] = [];
  for (const l of lines) {
    const m = KEY.exec(l);
    if (m) {
      if (blocks.some((b) => b.key === m[1])) return undefined;
      blocks.push({ key: m[1]!, lines: [l] });
    } else if (blocks.length) blocks[blocks.length - 1]!.lines.push(l);
    else preamble.push(l);
  }
  return { preamble, blocks };
}

type ListForm =
  | {
      readonly kind: 'block';
      readonly head: string;
      readonly indent: string;
      readonly items: string[];
      readonly tail: string[];
    }
  | { readonly kind: 'flow'; readonly head: string; readonly items: string[] };

const ITEM = /^\s*-\s+(.*?)\s*\r?$/;

function listOf(block: readonly string[]): ListForm | undefined {
  const m = KEY.exec(block[0]!)!;
  const rest = m[2]!.replace(/\r$/, '').trim();
  if (rest === '' && block.length > 1) {
    const items: string[] = [];
    const tail: string[] = [];
    for (const l of block.slice(1)) {
      const it = ITEM.exec(l);
      if (it && tail.length === 0) items.push(it[1]!);
      else if (l.trim() === '' || l.trim().startsWith('#')) tail.push(l);
      else return undefined; // a nested mapping or a multi-line item: not a plain list
    }
    return { kind: 'block', head: block[0]!, indent: /^(\s*)-/.exec(block[1]!)?.[1] ?? '  ', items, tail };
  }
  const flow = /^\[(.*)\]$/.exec(rest);
  if (flow && block.length === 1 && !/["'[\]{}]/.test(flow[1]!)) {
    return {
      kind: 'flow',
      head: `${m[1]}:`,
      items: flow[1]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  }
  return undefined;
}

function render(form: ListForm, items: readonly string[], eol: string): string[] {
  if (form.kind === 'flow') return [`${form.head} [${items.join(', ')}]${eol}`];
  return [form.head, ...items.map((i) => `${form.indent}- ${i}${eol}`), ...form.tail];
}

/** Set merge of three lists: ours' order, their new items after, removals from either side applied. */
export function mergeItems(base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] {
  const b = new Set(base);
  const t = new Set(theirs);
  const o = new Set(ours);
  const out: string[] = [];
  for (const x of ours) if (!(b.has(x) && !t.has(x)) && !out.includes(x)) out.push(x);
  for (const x of theirs) if (!b.has(x) && !o.has(x) && !out.includes(x)) out.push(x);
  return out;
}

const same = (a: readonly string[] | undefined, b: readonly string[] | undefined) =>
  a === b ||
  (a !== undefined &&
    b !== undefined &&
    a.length === b.length &&
    a.every((l, i) => l.replace(/\r$/, '') === b[i]!.replace(/\r$/, '')));

/**
 * Merge three front-matter bodies (the lines between the `---` fences).
 * @returns undefined when a version cannot be split into distinct keys (the caller merges it as text).
 */
export function mergeFrontMatter(
  base: readonly string[],
  ours: readonly string[],
  theirs: readonly string[],
  labels: { ours: string; theirs: string },
): FrontMatterMerge | undefined {
  const [kb, ko, kt] = [keyBlocks(base), keyBlocks(ours), keyBlocks(theirs)];
  if (!kb || !ko || !kt) return undefined;
  const get = (k: { blocks: KeyBlock[] }, key: string) => k.blocks.find((b) => b.key === key)?.lines;
  const keys = [...ko.blocks.map((b) => b.key)];
  for (const b of kt.blocks) if (!keys.includes(b.key) && !get(kb, b.key)) keys.push(b.key);
  const out: string[] = [...ko.preamble];
  let conflicts = 0;
  const eol = /\r$/.test(ours[0] ?? '') ? '\r' : '';
  for (const key of keys) {
    const o = get(kb, key);
    const a = get(ko, key);
    const t = get(kt, key);
    if (same(a, t)) {
      if (a) out.push(...a);
    } else if (same(o, t)) {
      if (a) out.push(...a);
    } else if (same(o, a)) {
      if (t) out.push(...t);
    } else {
      const la = a && listOf(a);
      const lt = t && listOf(t);
      const lo = o ? listOf(o) : la ? ({ ...la, items: [] } as ListForm) : undefined;
      if (la && lt && lo) out.push(...render(la, mergeItems(lo.items, la.items, lt.items), eol));
      else {
        conflicts++;
        out.push(
          `<<<<<<< ${labels.ours}${eol}`,
          ...(a ?? []),
          `=======${eol}`,
          ...(t ?? []),
          `>>>>>>> ${labels.theirs}${eol}`,
        );
      }
    }
  }
  // Keys removed on their side and unchanged on ours are dropped above by `same(o, a)` → t undefined.
  return { lines: out, conflicts };
}
