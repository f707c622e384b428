// Glob matching for layout patterns and `--file` filters, on POSIX workspace-relative paths, with
// dot files included (`.fusion/memory/**` and `memory/.notes.md` are memory too). The matcher is
// core/glob-match.ts (no RegExp over the whole path, so no glob can make a match run for minutes:
// U48); this module caches compiled globs and answers for lists. Pure.
import { compileGlob, type GlobMatcher } from './glob-match.js';
import { MemoryError } from './errors.js';

export type { GlobMatcher } from './glob-match.js';

const cache = new Map<string, GlobMatcher>();

/**
 * Compile a glob (cached). `**` as a whole segment matches across `/`, `*` and `?` do not.
 * @throws MemoryError `usage` for a glob core/glob-match.ts refuses (an extglob, a brace set past 256 alternatives).
 */
export function globMatcher(glob: string): GlobMatcher {
  const hit = cache.get(glob);
  if (hit) return hit;
  const out = compileGlob(glob);
  if (cache.size > 500) cache.clear();
  cache.set(glob, out);
  return out;
}

/**
 * Check every glob of a config list compiles.
 * @throws MemoryError `config.invalid` naming the config field and the glob.
 */
export function checkConfigGlobs(field: string, globs: readonly string[]): void {
  for (const g of globs) {
    try {
      globMatcher(g);
    } catch (e) {
      throw new MemoryError('config.invalid', `${field}: ${(e as Error).message}`, {
        hint: 'fix the glob in gitmem.config.json',
      });
    }
  }
}

/** @returns true when `path` matches any of `globs`. */
export function matchesAny(path: string, globs: readonly string[]): boolean {
  for (const g of globs) if (globMatcher(g).test(path)) return true;
  return false;
}

/** A compiled list: its matchers, and the literal pieces each glob needs (see {@link literalsOf}). */
interface Compiled {
  readonly matchers: readonly GlobMatcher[];
  /** Per glob, text a matching path must contain; undefined for a glob that needs none known. */
  readonly needs: readonly (readonly string[] | undefined)[];
}

const anyCache = new WeakMap<readonly string[], Compiled>();

/**
 * Text any path matching `glob` must contain: its runs of plain characters between `*`, `?` and
 * `/` (a `**` may swallow the slashes around it, never a letter). Undefined for a glob with
 * brackets, braces, extglob characters, negation or escapes, whose required text is not read off
 * this simply.
 */
function literalsOf(glob: string): string[] | undefined {
  if (/[[\]{}()!+@\\]/.test(glob)) return undefined;
  const pieces = glob.split(/[*?/]+/).filter((x) => x.length > 0);
  return pieces.length > 0 ? pieces : undefined;
}

/**
 * {@link matchesAny} for a glob list that is used many times (a layout's kind and ignore lists):
 * compiled once (cached per array, so the array must not be mutated afterwards). Same answers as
 * matchesAny. A glob whose literal pieces the path lacks is passed over without running its matcher
 * (the stat walk tests every file against the ignore list, whose globs are `**\/name/**`).
 */
export function matchesAnyOf(path: string, globs: readonly string[]): boolean {
  let c = anyCache.get(globs);
  if (c === undefined) {
    c = { matchers: globs.map(globMatcher), needs: globs.map(literalsOf) };
    anyCache.set(globs, c);
  }
  for (let i = 0; i < c.matchers.length; i++) {
    const lits = c.needs[i];
    if (lits !== undefined && !lits.every((l) => path.includes(l))) continue;
    if (c.matchers[i]!.test(path)) return true;
  }
  return false;
}
