// Where a path inside a confined root really is, symlinks resolved: the node fs's realPath
// (core/ports.ts MemoryFs.realPath). deps: core (types).
import { promises as fsp } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import type { RelPath } from '../core/paths.js';

/**
 * @param realRoot the root, itself resolved (realpath).
 * @param abs an absolute path under it that `resolveInside` already checked (no symlink out).
 * @returns the root-relative POSIX path of the deepest existing part of `abs`, resolved, with the
 *   rest of `abs` appended as given ('' for the root itself).
 */
export async function realPathInside(realRoot: string, abs: string): Promise<RelPath> {
  let probe = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await fsp.realpath(probe);
      return [...relative(realRoot, real).split(sep).filter(Boolean), ...rest].join('/') as RelPath;
    } catch (e) {
      const up = dirname(probe);
      if (up === probe || relative(realRoot, up).startsWith('..')) throw e;
      rest.unshift(probe.slice(up.length + 1));
      probe = up;
    }
  }
}
