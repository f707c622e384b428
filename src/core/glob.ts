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

const anyCache = new WeakMap<readonly string[], RegExp | null>();

/**
 * {@link matchesAny} for a glob list that is used many times (a layout's kind and ignore lists):
 * the list is compiled once into one alternation of its anchored RegExps (cached per array, so the
 * array must not be mutated afterwards). Same answers as matchesAny.
 */
export function matchesAnyOf(path: string, globs: readonly string[]): boolean {
  let re = anyCache.get(globs);
  if (re === undefined) {
    const parts = globs.map(globToRegExp);
    const flags = parts[0]?.flags ?? '';
    re = parts.length === 0 ? null : parts.every((r) => r.flags === flags) ? combined(parts, flags) : null;
    if (re === null && parts.length > 0) return matchesAny(path, globs);
    anyCache.set(globs, re);
  }
  return re !== null && re.test(path);
}

function combined(parts: readonly RegExp[], flags: string): RegExp {
  return parts.length === 1 ? parts[0]! : new RegExp(parts.map((r) => `(?:${r.source})`).join('|'), flags);
}
