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
