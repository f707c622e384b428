// Where a workspace's derived state and the embedding model live on this machine — one answer for
// every host (CLI, language server, backends), so they share one index: `<gitdir>/gitmem[/ws-<hash>]`
// (`$GITMEM_INDEX_DIR`, or a config `index.dir` inside gitmem's own folders, wins), else
// `<root>/.gitmem`. Imports core (hash) and node:*.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { sha256 } from '../core/hash.js';

/** The model folder's name, wherever it is installed. */
export const MODEL_DIR_NAME = 'all-MiniLM-L6-v2-q4';

/** The user-level cache folder for derived state: `$XDG_CACHE_HOME/gitmem`, else `~/.cache/gitmem`. */
function userCacheDir(): string {
  const base =
    process.env.XDG_CACHE_HOME && isAbsolute(process.env.XDG_CACHE_HOME)
      ? process.env.XDG_CACHE_HOME
      : join(homedir(), '.cache');
  return join(base, 'gitmem');
}

function within(parent: string, child: string): boolean {
  const rel = relative(resolve(parent), resolve(child));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Why a repository's `index.dir` may not be used, or undefined when it may. Derived state goes only
 * to gitmem's own folders: the git dir's `gitmem/`, `<root>/.gitmem`, or the user-level cache. A folder
 * in the work tree (it may hold memory, or be the root itself: its `.gitignore` of `*` would hide
 * them from git) or anywhere else on the machine (a cloned config must not make recall overwrite
 * another folder) is refused.
 */
export function refuseIndexDir(dir: string, root: string, gitdir: string | undefined): string | undefined {
  // Only gitmem's own folder in the git dir: the git dir itself or refs/, objects/, hooks/ would get
  // index files among git's own (every artifact under refs/heads/ is a broken branch to git).
  if (gitdir && within(join(gitdir, 'gitmem'), dir)) return undefined;
  if (within(join(root, '.gitmem'), dir)) return undefined;
  if (within(userCacheDir(), dir)) return undefined;
  if (gitdir && within(gitdir, dir))
    return "it is the git dir or one of git's own folders (only its gitmem/ folder is gitmem's)";
  if (within(dir, root)) return 'it is the workspace or a folder above it';
  if (within(root, dir)) return "it is inside the work tree, where memory and the user's files live";
  return "it is outside the workspace and gitmem's own folders";
}

/**
 * The index folder for a workspace `root` (absolute), as the CLI chooses it, so both share one index:
 * `$GITMEM_INDEX_DIR` (a user-level setting, trusted), else the repository config's `index.dir` when
 * {@link refuseIndexDir} accepts it, else `<gitdir>/gitmem[/ws-<hash>]`, else `<root>/.gitmem`.
 * `onRefused(message)` is told when a configured folder is not used.
 */
export function indexDirFor(
  root: string,
  workTree: string | undefined,
  gitdir: string | undefined,
  configured: string | undefined,
  onRefused?: (message: string) => void,
): string {
  const user = process.env.GITMEM_INDEX_DIR;
  if (user) return isAbsolute(user) ? user : resolve(user);
  if (configured) {
    const dir = isAbsolute(configured) ? configured : join(root, configured);
    const why = refuseIndexDir(dir, root, gitdir);
    if (!why) return dir;
    onRefused?.(
      `index.dir "${configured}" in gitmem.config.json is not used: ${why}. Derived state stays in gitmem's own folders ` +
        "(the git dir's gitmem/, .gitmem/, or the user cache); set GITMEM_INDEX_DIR in your environment to choose another",
    );
  }
  if (gitdir && workTree) {
    // Several workspaces in one repository get separate index folders.
    const rel = relative(workTree, root);
    return rel ? join(gitdir, 'gitmem', `ws-${sha256(rel).slice(0, 12)}`) : join(gitdir, 'gitmem');
  }
  return join(root, '.gitmem');
}

/**
 * Where `gitmem setup` installs the model for the current user: `$XDG_DATA_HOME/gitmem/models/<name>`
 * (default `~/.local/share/gitmem/models/<name>`; on Windows `%LOCALAPPDATA%\\gitmem\\models\\<name>`).
 * Only `gitmem setup` writes there; every other command only reads it.
 */
export function userModelDir(): string {
  const base =
    process.env.XDG_DATA_HOME && isAbsolute(process.env.XDG_DATA_HOME)
      ? process.env.XDG_DATA_HOME
      : process.platform === 'win32' && process.env.LOCALAPPDATA
        ? process.env.LOCALAPPDATA
        : join(homedir(), '.local', 'share');
  return join(base, 'gitmem', 'models', MODEL_DIR_NAME);
}

/**
 * The installed embedding model: `$GITMEM_MODEL_DIR`; else `models/all-MiniLM-L6-v2-q4` in a folder
 * at or above `from` (the running script's folder: a clone's `npm run setup` installs it beside
 * dist/); else the user-level folder `gitmem setup` fills ({@link userModelDir}).
 * @returns undefined when none is found (semantic recall then reports the model missing).
 */
export function findModelDir(from: string | undefined): string | undefined {
  if (process.env.GITMEM_MODEL_DIR) return process.env.GITMEM_MODEL_DIR;
  if (from) {
    let dir = resolve(from);
    for (let i = 0; i < 5; i++) {
      const candidate = join(dir, 'models', MODEL_DIR_NAME);
      if (existsSync(candidate)) return candidate;
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  const user = userModelDir();
  return existsSync(user) ? user : undefined;
}
