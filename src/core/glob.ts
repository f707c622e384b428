// Glob matching for layout patterns and `--file` filters, on POSIX workspace-relative paths:
// picomatch with dot files included (`.fusion/memory/**` and `memory/.notes.md` are memory too).
// The one owner of picomatch; pure (picomatch does no I/O).
import picomatch from 'picomatch';

const OPTIONS: picomatch.PicomatchOptions = { dot: true };
const cache = new Map<string, RegExp>();

/** Compile a glob into an anchored RegExp (cached). `**` matches across `/`, `*` does not. */
export function globToRegExp(glob: string): RegExp {
  const hit = cache.get(glob);
  if (hit) return hit;
  const out = picomatch.makeRe(glob, OPTIONS);
  if (cache.size > 500) cache.clear();
  cache.set(glob, out);
  return out;
}

/** @returns true when `path` matches any of `globs`. */
export function matchesAny(path: string, globs: readonly string[]): boolean {
  for (const g of globs) if (globToRegExp(g).test(path)) return true;
  return false;
}

/** A compiled list: its combined RegExp, and the literal pieces each glob needs (see {@link literalsOf}). */
interface Compiled {
  readonly re: RegExp;
  /** Per glob, text a matching path must contain; undefined for a list with a glob that needs none. */
  readonly needs: readonly (readonly string[])[] | undefined;
}

const anyCache = new WeakMap<readonly string[], Compiled | null>();

/**
 * Text any path matching `glob` must contain: its runs of plain characters between `*`, `?` and
 * `/` (a `**` may swallow the slashes around it, never a letter). Undefined for a glob with
 * brackets, braces, extglobs, negation or escapes, whose required text is not read off this simply.
 */
function literalsOf(glob: string): string[] | undefined {
  if (/[[\]{}()!+@\\]/.test(glob)) return undefined;
  const pieces = glob.split(/[*?/]+/).filter((x) => x.length > 0);
  return pieces.length > 0 ? pieces : undefined;
}

/**
 * {@link matchesAny} for a glob list that is used many times (a layout's kind and ignore lists):
 * the list is compiled once into one alternation of its anchored RegExps (cached per array, so the
 * array must not be mutated afterwards). Same answers as matchesAny. A path lacking some literal
 * piece of every glob is answered without running the RegExp (the stat walk tests every file
 * against the ignore list, whose globs are `**\/name/**`).
 */
export function matchesAnyOf(path: string, globs: readonly string[]): boolean {
  let c = anyCache.get(globs);
  if (c === undefined) {
    const parts = globs.map(globToRegExp);
    const flags = parts[0]?.flags ?? '';
    const re = parts.length === 0 ? null : parts.every((r) => r.flags === flags) ? combined(parts, flags) : null;
    if (re === null && parts.length > 0) return matchesAny(path, globs);
    const lits = globs.map(literalsOf);
    const needs = flags.includes('i') || lits.some((l) => l === undefined) ? undefined : (lits as string[][]);
    c = re === null ? null : { re, needs };
    anyCache.set(globs, c);
  }
  if (c === null) return false;
  if (c.needs && !c.needs.some((lits) => lits.every((l) => path.includes(l)))) return false;
  return c.re.test(path);
}

function combined(parts: readonly RegExp[], flags: string): RegExp {
  return parts.length === 1 ? parts[0]! : new RegExp(parts.map((r) => `(?:${r.source})`).join('|'), flags);
}
