// One path per real file in a workspace walk (node-fs.ts list): a symlink that reaches a file the
// walk also takes at another path (memory/alias.md -> ../MEMORY.md, a symlinked folder) would index,
// recall and validate the same lines twice (U39); which path is kept, and what is said of the copies
// dropped (one line per wholly dropped symlinked folder, U65). Pure over the walk's findings.
// deps: core (paths), node:path.
import { relative, sep } from 'node:path';
import type { RelPath } from '../core/paths.js';

/** Of each listed path: its real file, whether it is reached through a link, and by which symlinked folder. */
export type RealOf = { real: string; link: boolean; via?: string | undefined };

/**
 * Keeps one path per real file: a path the caller keeps (`taken`) before one it does not, then the
 * file's own path before a link, then path order. The others are dropped (the caller reports them),
 * so index, recall, get and validate see one copy.
 */
export function dropLinkedCopies(
  sorted: RelPath[],
  realOf: Map<RelPath, RealOf>,
  taken: ((rp: RelPath) => boolean) | undefined,
): { paths: RelPath[]; dropped: RelPath[] } {
  const keeper = new Map<string, RelPath>();
  // Rank of a path for its real file: kept by the caller first, then its own path before a link.
  const takenOf = new Map<RelPath, boolean>();
  const isTaken = (rp: RelPath) => {
    let t = takenOf.get(rp);
    if (t === undefined) takenOf.set(rp, (t = taken ? taken(rp) : true));
    return t;
  };
  const rank = (rp: RelPath) => (isTaken(rp) ? 2 : 0) + (realOf.get(rp)!.link ? 0 : 1);
  for (const rp of sorted) {
    const r = realOf.get(rp)!;
    const held = keeper.get(r.real);
    if (held === undefined || rank(rp) > rank(held)) keeper.set(r.real, rp);
  }
  if (keeper.size === sorted.length) return { paths: sorted, dropped: [] };
  const dropped: RelPath[] = [];
  const paths: RelPath[] = [];
  for (const rp of sorted) (keeper.get(realOf.get(rp)!.real) === rp ? paths : dropped).push(rp);
  return { paths, dropped };
}

/**
 * What to say of the dropped linked copies, as [path, the path indexed instead]: one line for a
 * symlinked folder all of whose listed files were dropped (U65), else one per file.
 */
export function linkedCopiesSaid(
  dropped: readonly RelPath[],
  listed: readonly RelPath[],
  realOf: Map<RelPath, RealOf>,
  folders: ReadonlyMap<string, string>,
  realRoot: string,
): [string, string][] {
  const count = (paths: readonly RelPath[]) => {
    const n = new Map<string, number>();
    for (const rp of paths) {
      const via = realOf.get(rp)!.via;
      if (via !== undefined) n.set(via, (n.get(via) ?? 0) + 1);
    }
    return n;
  };
  const all = count(listed);
  const gone = count(dropped);
  const whole = (via: string | undefined) => via !== undefined && folders.has(via) && gone.get(via) === all.get(via);
  const said: [string, string][] = [];
  for (const rp of dropped) {
    const r = realOf.get(rp)!;
    if (!whole(r.via)) said.push([rp, relative(realRoot, r.real).split(sep).join('/')]);
  }
  for (const via of gone.keys()) if (whole(via)) said.push([via, folders.get(via)!]);
  return said;
}
