// A small glob matcher for layout patterns and `--file` filters: `**`, `*`, `?`, `[0-9]`, `{a,b}`.
// Pure; no imports. Matching is on POSIX relative paths.

const cache = new Map<string, RegExp>();

/** Compile a glob into an anchored RegExp (cached). `**` matches across `/`, `*` does not. */
export function globToRegExp(glob: string): RegExp {
  const hit = cache.get(glob);
  if (hit) return hit;
  let re = '';
  let inBrace = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close < 0) re += '\\[';
      else {
        re += `[${glob.slice(i + 1, close).replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (c === '{') {
      inBrace++;
      re += '(?:';
    } else if (c === '}' && inBrace > 0) {
      inBrace--;
      re += ')';
    } else if (c === ',' && inBrace > 0) re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  const out = new RegExp(`^${re}$`, 'u');
  if (cache.size > 500) cache.clear();
  cache.set(glob, out);
  return out;
}

/** @returns true when `path` matches any of `globs`. */
export function matchesAny(path: string, globs: readonly string[]): boolean {
  for (const g of globs) if (globToRegExp(g).test(path)) return true;
  return false;
}
