// The confined directory walk of the node fs (node-fs.ts list): every folder under one workspace
// root, symlinks followed only while they stay inside it and out of `.git`/`.gitmem`, symlinked
// folders walked after every real one, one path per real file (linked-copies.ts), and a skip line
// for every entry it cannot take. Also the two confinement checks node-fs.ts uses on every path.
// deps: core (paths, text), platform (safe-read, linked-copies).
import { promises as fsp, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { nameProblem, toRelPath, type RelPath } from '../core/paths.js';
import { shownControls } from '../core/text.js';
import { nonRegularKind } from './safe-read.js';
import { dropLinkedCopies, linkedCopiesSaid, type RealOf } from './linked-copies.js';

/** Whether `abs` is `root` or under it (both absolute, resolved). */
export function inside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel));
}

/** Git's own folder and gitmem's derived state: the walk never enters them, and no symlink may lead there (U38). */
export function inPrivateFolder(relPath: string): boolean {
  return relPath.split(/[\\/]/).some((s) => s === '.git' || s === '.gitmem');
}

/**
 * `relPath` (directory entry names joined by `/` during a walk) as a RelPath without the cost of
 * {@link toRelPath}, when it already is one: entry names are single segments, never `.`/`..`, never
 * hold `/` or NUL. Paths with a backslash (a separator to toRelPath), a drive-like start or over
 * 4096 characters are left to toRelPath (undefined).
 */
function plainRelPath(relPath: string): RelPath | undefined {
  if (relPath.length > 4096 || relPath.includes('\\') || /^[A-Za-z]:/.test(relPath)) return undefined;
  return relPath as RelPath;
}

/** What {@link walkConfined} is given: the arguments of MemoryFs.list (core/ports.ts) and its root. */
export interface WalkRequest {
  /** The workspace root, resolved (realpath). */
  readonly realRoot: string;
  /** Filled with each accepted path → its absolute path (the caller clears it first). */
  readonly verified: Map<string, string>;
  readonly accept: (path: RelPath) => boolean;
  readonly onSkip?: ((path: string, reason: string, unreadable?: boolean) => void) | undefined;
  readonly taken?: ((path: RelPath) => boolean) | undefined;
}

/** The state of one walk, shared by the per-folder and per-entry steps below. */
interface Walk extends WalkRequest {
  readonly out: RelPath[];
  readonly seen: Set<string>;
  // Of each accepted file (parallel to `out`): its folder's real path, its name, and the target
  // when it is a symlink. A symlink to a file the walk also takes at its own path
  // (memory/alias.md -> ../MEMORY.md) would index, recall and validate the same lines twice
  // (U39); without a file symlink no two paths can share a real file (every real folder is
  // walked once), so real paths are joined only when the walk met one. (A real path and a map
  // entry per file took ~35 of the ~55 ms CPU of a 10,000-file walk in cpu profiles; one-shot
  // keyword recall at 10,000 files, 20 alternating A/B calls at load ≈ 9: CPU 453 -> 406 ms.)
  readonly dirOf: string[];
  readonly nameOf: string[];
  readonly links: { at: number; target: string; via: string | undefined }[];
  /** A symlinked folder's path → the path of the folder it leads to, for its one skip line (U65). */
  readonly linkFolders: Map<string, string>;
  // Symlinked folders are walked after every real one, in path order (U53): a folder is then
  // taken at its own path whatever order the listing gives, and its files reached again by a link
  // are dropped as linked copies below (kept there only when its own path is not memory). Each
  // real folder is walked at most once by a link; `walkedAt` says where.
  readonly later: { abs: string; rel: string }[];
  readonly walkedAt: Map<string, string>;
}

/** One folder being walked: its absolute, relative and real path, and `via` (see {@link walkFolder}). */
interface Folder {
  readonly abs: string;
  readonly rel: string;
  readonly real: string;
  readonly via: string | undefined;
}

/**
 * Walk `realRoot` for MemoryFs.list: the accepted paths, sorted, one per real file; every entry
 * left out that could matter is said through `onSkip`. Never throws for an unreadable entry.
 */
export async function walkConfined(request: WalkRequest): Promise<RelPath[]> {
  const w: Walk = {
    ...request,
    out: [],
    seen: new Set(),
    dirOf: [],
    nameOf: [],
    links: [],
    linkFolders: new Map(),
    later: [],
    walkedAt: new Map(),
  };
  const { out, links, verified, onSkip } = w;
  await walkFolder(w, w.realRoot, '');
  for (let round = w.later.splice(0); round.length > 0; round = w.later.splice(0)) {
    round.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
    for (const l of round) await walkFolder(w, l.abs, l.rel, l.rel);
  }
  let realOf: Map<RelPath, RealOf> | undefined;
  if (links.length > 0) {
    realOf = new Map();
    for (let i = 0; i < out.length; i++) realOf.set(out[i]!, { real: join(w.dirOf[i]!, w.nameOf[i]!), link: false });
    for (const l of links) realOf.set(out[l.at]!, { real: l.target, link: true, via: l.via });
  }
  out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (!realOf) return out;
  const kept = dropLinkedCopies(out, realOf, w.taken);
  for (const d of kept.dropped) verified.delete(d);
  for (const [path, to] of linkedCopiesSaid(kept.dropped, out, realOf, w.linkFolders, w.realRoot))
    onSkip?.(path, `symlink to ${to}, indexed there`);
  return kept.paths;
}

function isMemoryName(w: Walk, relPath: string): boolean {
  try {
    return w.accept(toRelPath(relPath));
  } catch {
    return false;
  }
}

/** A memory file could be at `relPath`, or under it if it is a folder. */
function couldHoldMemory(w: Walk, relPath: string): boolean {
  const keeps = (p: string): boolean => {
    try {
      return (w.taken ?? w.accept)(toRelPath(p));
    } catch {
      return false;
    }
  };
  return keeps(relPath) || keeps(`${relPath}/a.md`) || keeps(`${relPath}/a/a.md`);
}

/** Walk one folder. `via`: the symlinked folder this walk went in by (and every folder under it), if any. */
async function walkFolder(w: Walk, absDir: string, relDir: string, via?: string): Promise<void> {
  const { onSkip } = w;
  const byLink = via !== undefined;
  let real: string;
  try {
    real = await fsp.realpath(absDir);
  } catch (e) {
    onSkip?.(relDir || '.', `unreadable: ${(e as NodeJS.ErrnoException).code ?? e}`);
    return;
  }
  if (!inside(w.realRoot, real)) {
    onSkip?.(relDir, 'symlink leads outside the workspace');
    return;
  }
  const at = byLink ? w.walkedAt.get(real) : undefined;
  if (at !== undefined || (!byLink && w.seen.has(real))) {
    onSkip?.(relDir, at !== undefined ? `symlink to ${at}, indexed there` : 'symlink loop');
    return;
  }
  if (byLink) w.walkedAt.set(real, relDir);
  if (via === relDir) w.linkFolders.set(via, relative(w.realRoot, real).split(sep).join('/'));
  w.seen.add(real);
  let entries: Dirent[];
  try {
    entries = await fsp.readdir(absDir, { withFileTypes: true });
  } catch (e) {
    onSkip?.(relDir || '.', `unreadable: ${(e as NodeJS.ErrnoException).code ?? e}`);
    return;
  }
  const folder: Folder = { abs: absDir, rel: relDir, real, via };
  // Most entries (plain files) are taken without a promise: only the steps that touch the disk are async.
  for (const ent of entries) {
    const pending = walkEntry(w, folder, ent);
    if (pending) await pending;
  }
}

/** One entry of a folder: its name, absolute and relative path. */
interface Entry {
  readonly name: string;
  readonly abs: string;
  readonly relPath: string;
}

/** One entry of `folder`: left out (ignored or a bad name), or taken by its kind. */
function walkEntry(w: Walk, folder: Folder, ent: Dirent): Promise<void> | undefined {
  const name = ent.name;
  if (name === '.git' || name === 'node_modules' || name === '.gitmem') return undefined;
  const absDir = folder.abs;
  const entry: Entry = {
    name,
    relPath: folder.rel ? `${folder.rel}/${name}` : name,
    abs: absDir.endsWith(sep) ? absDir + name : absDir + sep + name,
  };
  if (name.includes('\uFFFD')) return lossyNameEntry(w, folder, ent, entry);
  if (lineBreakName(w, ent, entry.relPath)) return undefined;
  return entryByType(w, folder, ent, entry);
}

/**
 * An entry whose name holds U+FFFD. A name that is not valid UTF-8 comes back with U+FFFD in place
 * of its bytes: no path gitmem can form reaches the file, so it would vanish from every read. Said
 * instead (B56); a name really written with U+FFFD is there and walked as any other.
 */
async function lossyNameEntry(w: Walk, folder: Folder, ent: Dirent, entry: Entry): Promise<void> {
  const there = await fsp.lstat(entry.abs).then(
    () => true,
    () => false,
  );
  if (!there) {
    const what = ent.isDirectory() ? 'folder' : 'file';
    w.onSkip?.(
      entry.relPath,
      `${what} name is not valid UTF-8 (rename it)`,
      !ent.isDirectory() && isMemoryName(w, entry.relPath),
    );
    return;
  }
  if (lineBreakName(w, ent, entry.relPath)) return;
  await entryByType(w, folder, ent, entry);
}

/**
 * Whether the entry's name holds a line break (then said through `onSkip`). A line break in a name
 * would split every line that names the file (recall, validate, log, warnings) into two, the
 * second looking like gitmem's own output (B59).
 */
function lineBreakName(w: Walk, ent: Dirent, relPath: string): boolean {
  const problem = nameProblem(ent.name);
  if (problem === undefined) return false;
  const what = ent.isDirectory() ? 'folder' : 'file';
  // Named with its breaks as symbols (LF -> U+240A): the raw path would split the report too.
  w.onSkip?.(
    shownControls(relPath).replace(/\n/g, '\u240a'),
    `${what} ${problem}`,
    !ent.isDirectory() && isMemoryName(w, relPath),
  );
  return true;
}

/** The entry by what it is: a symlink is followed first, then taken as what it leads to. */
function entryByType(w: Walk, folder: Folder, ent: Dirent, entry: Entry): Promise<void> | undefined {
  if (!ent.isSymbolicLink()) return entryByKind(w, folder, entry, { isDir: ent.isDirectory(), isFile: ent.isFile() });
  return followLink(w, entry.abs, entry.relPath).then((link) =>
    link === undefined ? undefined : entryByKind(w, folder, entry, link),
  );
}

/** A folder (walked now, or later when reached by a link), a file (taken), or neither (said). */
function entryByKind(
  w: Walk,
  folder: Folder,
  entry: Entry,
  kind: { isDir: boolean; isFile: boolean; target?: string },
): Promise<void> | undefined {
  const { abs, relPath } = entry;
  if (kind.isDir && kind.target !== undefined) {
    // A link to this folder or one above it would walk the same files forever.
    if (inside(kind.target, folder.real)) w.onSkip?.(relPath, 'symlink loop');
    else w.later.push({ abs, rel: relPath });
    return undefined;
  }
  if (kind.isDir) return walkFolder(w, abs, relPath, folder.via);
  if (!kind.isFile) return notAFile(w, abs, relPath);
  takeFile(w, folder, entry, kind.target);
  return undefined;
}

/**
 * What the symlink at `abs` leads to, when it stays inside the workspace and out of the git folder;
 * undefined when it does not, is broken or loops (said through `onSkip` where it matters).
 */
async function followLink(
  w: Walk,
  abs: string,
  relPath: string,
): Promise<{ isDir: boolean; isFile: boolean; target: string } | undefined> {
  try {
    const target = await fsp.realpath(abs);
    if (!inside(w.realRoot, target)) {
      // Said only where memory could be (B62): a link to a file or folder outside at a path
      // no memory file can have (`host.txt`, `vendor-docs/`) was never going to be read.
      if (couldHoldMemory(w, relPath)) w.onSkip?.(relPath, 'symlink leads outside the workspace');
      return undefined;
    }
    if (inPrivateFolder(relative(w.realRoot, target))) {
      w.onSkip?.(relPath, 'symlink leads into the git folder');
      return undefined;
    }
    const st = await fsp.stat(abs);
    return { isDir: st.isDirectory(), isFile: st.isFile(), target };
  } catch (e) {
    // A broken or looping link at a memory path is an unreadable memory file (U60).
    const why = (e as NodeJS.ErrnoException).code === 'ELOOP' ? 'symlink loop' : 'broken symlink';
    w.onSkip?.(relPath, why, isMemoryName(w, relPath));
    return undefined;
  }
}

/**
 * A FIFO, socket or device with a memory name is never read; it is reported as an unreadable
 * memory file (the loader's diagnostic, U60) instead of being hidden.
 */
async function notAFile(w: Walk, abs: string, relPath: string): Promise<void> {
  const onSkip = w.onSkip;
  if (!onSkip || !isMemoryName(w, relPath)) return;
  let what = 'not a regular file';
  try {
    what = nonRegularKind(await fsp.stat(abs)) ?? what;
  } catch {
    /* vanished */
  }
  onSkip(relPath, `${what}, not a file; not indexed`, true);
}

/** A regular file (or, `linkTarget` given, a link to one) of `folder`: listed when `accept` takes its path. */
function takeFile(w: Walk, folder: Folder, entry: Entry, linkTarget: string | undefined): void {
  const { name, abs, relPath } = entry;
  let rp: RelPath;
  try {
    rp = plainRelPath(relPath) ?? toRelPath(relPath);
  } catch {
    w.onSkip?.(relPath, 'unusable file name');
    return;
  }
  if (!w.accept(rp)) return;
  if (linkTarget !== undefined || folder.via !== undefined)
    w.links.push({ at: w.out.length, target: linkTarget ?? join(folder.real, name), via: folder.via });
  w.out.push(rp);
  w.dirOf.push(folder.real);
  w.nameOf.push(name);
  w.verified.set(rp, abs);
}
