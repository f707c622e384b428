// get: one memory file's lines (`path[:start[-end]]`) or one entry by id, as an agent may be shown
// them (secrets masked, suspected instructions labelled: core/agent-text.ts) unless `reveal`.
// deps: core, service/shared.
import { forAgent, tagForAgent } from '../../core/agent-text.js';
import { maskName } from '../../core/secret-mask.js';
import { classify } from '../../core/layout.js';
import { MemoryError, shownValue } from '../../core/errors.js';
import { toRelPath } from '../../core/paths.js';
import { LineIndex } from '../../core/position.js';
import { decodeText } from '../../core/text.js';
import type { MemoryContext } from '../shared/memory-context.js';

export interface GetResult {
  path: string;
  startLine: number;
  endLine: number;
  kind: string;
  text: string;
  entry?: { id: string; type: string | null; tags: string[] };
  /**
   * An id held by more than one file (a duplicate id, which validate reports): the other files'
   * paths, sorted. The one returned is the first by path (docs/bad-inputs.md R30).
   */
  alsoAt?: string[];
}

/**
 * Read `ref`: a memory file path with an optional 1-based inclusive line range, or an entry id.
 * @throws MemoryError `path.not-memory`, `fs.not-found`, `usage` (range outside the file), `entry.not-found`.
 */
const RANGE_HINT = 'give path:START or path:START-END, 1-based line numbers, START ≤ END (e.g. memory/MEMORY.md:3-8)';

function rangeError(message: string): MemoryError {
  return new MemoryError('usage', message, { hint: RANGE_HINT });
}

/**
 * A `path.md:…` ref whose part after the colon is no line range (`:abc`, `:3-`, `:-3`, `:2:3`), on a
 * memory file that is there: said as a bad range (H10), not as "no memory with id …" for a file
 * that exists. Anything else (an id that happens to hold `.md:`) goes on to the id lookup.
 */
async function badRange(ctx: MemoryContext, ref: string): Promise<undefined> {
  const m = /^(.+?\.md):(.*)$/is.exec(ref);
  if (!m) return undefined;
  let path: ReturnType<typeof toRelPath>;
  try {
    path = toRelPath(m[1]!);
  } catch {
    return undefined;
  }
  if (!classify(path, ctx.loaded.layout) || !(await ctx.fs.stat(path))) return undefined;
  throw rangeError(`${shownValue(m[2]!)} is not a line range of ${path}`);
}

/** Options of {@link get}. */
/** `get`'s input: the entry id or `path[:start[-end]]`, and its options. */
export interface GetInput extends GetOptions {
  /** Entry id, or a workspace-relative memory file with an optional 1-based line range. */
  readonly ref: string;
}

export interface GetOptions {
  /**
   * The file's text as written: secrets unmasked, no labels. Only the CLI's `get --reveal` (a person
   * at a terminal) asks for it; MCP `memory_get`, the host and recall never do.
   */
  readonly reveal?: boolean;
}

export async function get(ctx: MemoryContext, input: GetInput): Promise<GetResult> {
  const { ref, ...options } = input;
  const shown = (t: string) => (options.reveal ? t : forAgent(t));
  // Names as recall shows them (R144): a file named after a token, an id holding one.
  const name = (t: string) => (options.reveal ? t : maskName(t));
  const { fs, loaded, workspace } = ctx;
  const m = /^(.+?\.md)(?::(\d+)(?:-(\d+))?)?$/i.exec(ref.trim()) ?? (await badRange(ctx, ref.trim()));
  if (m) {
    const path = toRelPath(m[1]!);
    const kind = classify(path, loaded.layout);
    if (!kind)
      throw new MemoryError('path.not-memory', `${name(path)} is not a memory file`, {
        hint: 'gitmem get <id | path[:start[-end]]>',
      });
    // File names may be stored decomposed (NFD, macOS) while people type them composed (NFC).
    let bytes = await fs.read(path);
    for (const form of ['NFD', 'NFC'] as const) {
      if (bytes || path.normalize(form) === path) continue;
      bytes = await fs.read(toRelPath(path.normalize(form)));
    }
    if (!bytes) throw new MemoryError('fs.not-found', `no such memory file: ${name(path)}`);
    // Masked over the whole file (a private key block is masked from its BEGIN line), then cut.
    const text = shown(decodeText(bytes).text.replace(/^\uFEFF/, ''));
    const li = new LineIndex(text);
    const total = li.lineCount - (text.endsWith('\n') || text.endsWith('\r') ? 1 : 0);
    const start = m[2] ? Number(m[2]) : 1;
    const end = m[3] ? Number(m[3]) : m[2] ? start : total;
    if (start < 1) throw rangeError(`line numbers start at 1, got ${start} for ${path} (1-${total})`);
    if (end < start)
      throw rangeError(`line range ${start}-${end} ends before it starts (${path} has lines 1-${total})`);
    if (start > Math.max(total, 1)) throw rangeError(`line range ${start}-${end} is outside ${path} (1-${total})`);
    const last = Math.min(end, total);
    const lines: string[] = [];
    for (let l = start; l <= last; l++) lines.push(li.lineText(l - 1));
    return { path: name(path), startLine: start, endLine: last, kind, text: lines.join('\n') };
  }
  // An id never holds a path separator: a path-like ref (`../../etc/passwd`) meets the same
  // confinement check as a file read, so a path out of the workspace is `path.outside-root` (U40).
  if (/[\\/]/.test(ref.trim())) toRelPath(ref.trim());
  const ws = await workspace();
  const docs = [...ws.byId(ref.trim())].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const d = docs[0];
  if (!d)
    throw new MemoryError('entry.not-found', `no memory with id ${shownValue(ref)}`, {
      hint: 'gitmem recall <words> finds ids',
    });
  const li = new LineIndex(d.text);
  const total = li.lineCount - (d.text.endsWith('\n') ? 1 : 0);
  return {
    path: name(d.path),
    startLine: 1,
    endLine: Math.max(total, 1),
    kind: d.kind,
    text: shown(d.text).replace(/\r?\n$/, ''),
    entry: { id: name(d.meta.id ?? ''), type: d.meta.type ?? null, tags: d.meta.tags.map(tagForAgent) },
    ...(docs.length > 1 ? { alsoAt: docs.slice(1).map((o) => name(o.path)) } : {}),
  };
}
