// Where a workspace's derived state and the embedding model live on this machine — one answer for
// every host (CLI, language server, backends), so they share one index: `<gitdir>/gitmem[/ws-<hash>]`
// (config `index.dir` wins), else `<root>/.gitmem`. Imports node:* only.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

/** The model folder's name, wherever it is installed. */
export const MODEL_DIR_NAME = 'all-MiniLM-L6-v2-q4';

/** The index folder for a workspace `root` (absolute), as the CLI chooses it, so both share one index. */
export function indexDirFor(root: string, workTree: string | undefined, gitdir: string | undefined, configured: string | undefined): string {
  if (configured) return isAbsolute(configured) ? configured : join(root, configured);
  if (gitdir && workTree) {
    // Several workspaces in one repository get separate index folders.
    const rel = relative(workTree, root);
    return rel ? join(gitdir, 'gitmem', `ws-${createHash('sha256').update(rel).digest('hex').slice(0, 12)}`) : join(gitdir, 'gitmem');
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
