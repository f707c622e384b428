// The three kinds of edit `gitmem integrate` makes in a file a person may also write, as pure functions
// of the file's text: a JSON merge (keys set, elements appended), a TOML block and a markdown block
// between markers. Each has an `add` (idempotent: adding twice gives the text of adding once) and a
// `remove` that takes out only what `add` put in. deps: none.

/** One JSON addition: `value` at the key path `at`, set (an object key) or appended (to an array). */
export interface JsonAddition {
  readonly at: readonly string[];
  readonly value: unknown;
  readonly mode: 'set' | 'append';
}

/** A file's JSON could not be merged (not JSON, or not an object where one is needed). */
export class EditError extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The indent unit of a JSON text (its first indented line), default two spaces. */
function indentOf(text: string): string | number {
  const m = /\n([ \t]+)\S/.exec(text);
  return m ? m[1]! : 2;
}

function parseObject(text: string | undefined, path: string): Record<string, unknown> {
  if (text === undefined || !text.trim()) return {};
  let j: unknown;
  try {
    j = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new EditError(
      `${path} is not plain JSON (${(e as Error).message}); gitmem merges only JSON without comments, edit it by hand`,
    );
  }
  if (!isObject(j)) throw new EditError(`${path} does not hold a JSON object`);
  return j;
}

function serialize(obj: unknown, old: string | undefined): string {
  return `${JSON.stringify(obj, null, old ? indentOf(old) : 2)}\n`;
}

/** What an addition found in the file: added, already there, or someone else's value in the way. */
export interface JsonOutcome {
  readonly text: string;
  /** Additions whose key already holds a different value (left as it is). */
  readonly conflicts: string[];
}

/** Merge `additions` into the JSON object `old` (undefined: no file). */
export function addJson(old: string | undefined, additions: readonly JsonAddition[], path: string): JsonOutcome {
  const root = parseObject(old, path);
  const conflicts: string[] = [];
  let changed = false;
  for (const a of additions) {
    let node: Record<string, unknown> = root;
    for (const key of a.at.slice(0, -1)) {
      if (node[key] === undefined) node[key] = {};
      if (!isObject(node[key]))
        throw new EditError(`${path}: "${a.at.join('.')}" crosses a value that is not an object`);
      node = node[key];
    }
    const last = a.at[a.at.length - 1]!;
    if (a.mode === 'set') {
      if (node[last] === undefined) {
        node[last] = a.value;
        changed = true;
      } else if (!sameJson(node[last], a.value)) conflicts.push(a.at.join('.'));
    } else {
      if (node[last] === undefined) node[last] = [];
      const list = node[last];
      if (!Array.isArray(list)) throw new EditError(`${path}: "${a.at.join('.')}" is not a list`);
      if (!list.some((v) => sameJson(v, a.value))) {
        list.push(a.value);
        changed = true;
      }
    }
  }
  return { text: changed || old === undefined ? serialize(root, old) : old, conflicts };
}

/** Take `additions` out of the JSON text (only values equal to them), and the objects and lists left empty. */
export function removeJson(old: string, additions: readonly JsonAddition[], path: string): string | undefined {
  const root = parseObject(old, path);
  let changed = false;
  for (const a of additions) {
    const chain: Record<string, unknown>[] = [root];
    for (const key of a.at.slice(0, -1)) {
      const next = chain[chain.length - 1]![key];
      if (!isObject(next)) break;
      chain.push(next);
    }
    if (chain.length !== a.at.length) continue;
    const node = chain[chain.length - 1]!;
    const last = a.at[a.at.length - 1]!;
    if (a.mode === 'set' && sameJson(node[last], a.value)) {
      delete node[last];
      changed = true;
    } else if (a.mode === 'append' && Array.isArray(node[last])) {
      const list = node[last] as unknown[];
      const i = list.findIndex((v) => sameJson(v, a.value));
      if (i >= 0) {
        list.splice(i, 1);
        changed = true;
        if (!list.length) delete node[last];
      }
    }
    // objects left empty by this removal go too, innermost first
    for (let d = chain.length - 1; d > 0; d--) {
      const key = a.at[d - 1]!;
      const parent = chain[d - 1]!;
      if (isObject(parent[key]) && Object.keys(parent[key]).length === 0) delete parent[key];
    }
  }
  if (!changed) return old;
  return Object.keys(root).length ? serialize(root, old) : undefined;
}

/** Markers of a block gitmem owns inside a file a person also writes. */
export interface BlockMarkers {
  readonly start: string;
  readonly end: string;
}

function findBlock(text: string, m: BlockMarkers): { from: number; to: number } | undefined {
  const from = text.indexOf(m.start);
  if (from < 0) return undefined;
  const endAt = text.indexOf(m.end, from);
  if (endAt < 0) return undefined;
  let to = endAt + m.end.length;
  if (text[to] === '\n') to++;
  return { from, to };
}

/**
 * Put `body` between the markers: replace the block when there is one, else append it after a blank
 * line. `preamble` (a rule file's front-matter, which must open the file) starts a file that does
 * not exist yet. @returns the new text (the same text when the block already reads so).
 */
export function addBlock(old: string | undefined, body: string, m: BlockMarkers, preamble = ''): string {
  const block = `${m.start}\n${body.replace(/\n+$/, '')}\n${m.end}\n`;
  if (old === undefined || old === '') return preamble + block;
  const at = findBlock(old, m);
  if (at) return old.slice(0, at.from) + block + old.slice(at.to);
  const sep = old.endsWith('\n\n') ? '' : old.endsWith('\n') ? '\n' : '\n\n';
  return old + sep + block;
}

/**
 * Take the block out, with the blank line `addBlock` put before it. undefined: nothing is left (or
 * only the `preamble` addBlock started the file with).
 */
export function removeBlock(old: string, m: BlockMarkers, preamble = ''): string | undefined {
  const at = findBlock(old, m);
  if (!at) return old;
  let from = at.from;
  // the separator addBlock wrote: one blank line (and a newline it had to add) before the block
  if (at.to === old.length && old.slice(0, from).endsWith('\n\n')) from -= 1;
  const out = old.slice(0, from) + old.slice(at.to);
  return out.trim() === '' || (preamble !== '' && out.trim() === preamble.trim()) ? undefined : out;
}
