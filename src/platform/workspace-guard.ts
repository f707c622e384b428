// Whether a folder may be opened as a gitmem workspace (docs/bad-inputs.md R03, R04). A folder that is
// not in a git work tree and holds none of gitmem's markers is not one: opening it as a `plain`
// workspace read every markdown file below it (the system temp folder: 73,854 chunks of other
// programs' files) and wrote the derived state into it. The home folder and `/` are never opened
// unless `gitmem init` set them up (gitmem.config.json), even with --dir or inside a git work tree (a
// dotfiles repository). A bare repository has no work tree: it is named as such and nothing is written.
// One owner for the markers: `hook prompt`, the commands that open a workspace and `init`'s advice.
// deps: core (errors), node:fs, node:os, node:path.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { MemoryError } from '../core/errors.js';
import type { Discovered } from './discover.js';

/**
 * What makes a folder a gitmem workspace outside git: gitmem's config and derived state, and the files
 * layout detection (core/layout.ts detectLayout) names a layout by.
 */
export const WORKSPACE_MARKS: readonly string[] = [
  'gitmem.config.json',
  'MEMORY.md',
  'memory',
  '.gitmem',
  'memory.md',
  '.fusion/memory',
  'SOUL.md',
  'HEARTBEAT.md',
];

/** What `gitmem init` writes: the one marker that opens the home folder or `/`. */
const INIT_MARK = 'gitmem.config.json';

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** @returns true when `dir` looks like a bare repository or a git directory (HEAD, objects/, refs/). */
function isGitDir(dir: string): boolean {
  try {
    return (
      statSync(join(dir, 'HEAD')).isFile() &&
      statSync(join(dir, 'objects')).isDirectory() &&
      statSync(join(dir, 'refs')).isDirectory()
    );
  } catch {
    return false;
  }
}

/** @returns the bare repository (or git directory) holding `dir`, when `dir` is in one. */
function enclosingGitDir(dir: string): string | undefined {
  let cur = dir;
  for (;;) {
    if (isGitDir(cur)) return cur;
    const up = dirname(cur);
    if (up === cur) return undefined;
    cur = up;
  }
}

/**
 * @returns the refusal for opening `found` as a workspace, or undefined when it may be opened.
 * `home` is the user's home folder (default: os.homedir()).
 */
export function workspaceRefusal(found: Discovered, home: string = homedir()): MemoryError | undefined {
  const root = real(found.root);
  // A missing folder or a file: the workspace's file system says so (workspace.not-found, H07).
  if (!isFolder(root)) return undefined;
  if (!found.workTree) {
    const bare = enclosingGitDir(root);
    if (bare) {
      return new MemoryError('git.bare-repository', `${bare} is a bare repository, no work tree`, {
        data: { path: bare },
        hint: `gitmem reads and writes memory in a work tree: clone it (git clone ${bare} <folder>) and run gitmem there`,
      });
    }
  }
  const guarded = root === parse(root).root || (home !== '' && root === real(home));
  if (guarded && !existsSync(join(root, INIT_MARK))) {
    return notAWorkspace(
      root,
      `${root} is ${root === parse(root).root ? 'the file system root' : 'the home folder'} and not a gitmem workspace (no ${INIT_MARK}; run \`gitmem init\` there to make it one)`,
    );
  }
  if (found.workTree) return undefined;
  return markerRefusal(root);
}

/**
 * @returns the refusal for a folder holding none of {@link WORKSPACE_MARKS} (whether or not it is in a
 * git work tree; `hook prompt`, run for every project, asks this of git work trees too), else undefined.
 */
export function markerRefusal(root: string): MemoryError | undefined {
  if (WORKSPACE_MARKS.some((m) => existsSync(join(root, m)))) return undefined;
  return notAWorkspace(
    root,
    `${root} is not a gitmem workspace (no ${WORKSPACE_MARKS.join(', ')}; run \`gitmem init\`)`,
  );
}

/**
 * @returns why a hook that runs in every project (`hook prompt`; any command under the global
 * `--if-workspace`) has nothing to do in `found`: not a workspace ({@link workspaceRefusal}), or a
 * folder holding none of {@link WORKSPACE_MARKS} even inside a git work tree ({@link markerRefusal});
 * undefined when `found` holds gitmem memory.
 */
export function hookRefusal(found: Discovered, home: string = homedir()): MemoryError | undefined {
  return workspaceRefusal(found, home) ?? markerRefusal(found.root);
}

function notAWorkspace(root: string, message: string): MemoryError {
  return new MemoryError('workspace.not-a-workspace', message, {
    data: { path: root },
    hint: 'run gitmem in a git work tree or a folder set up by `gitmem init`, or name one with --dir; nothing was read or written here',
  });
}

/** @throws the {@link workspaceRefusal} of `found`, if any. */
export function assertWorkspace(found: Discovered, home?: string): void {
  const refusal = workspaceRefusal(found, home);
  if (refusal) throw refusal;
}
