// Where a workspace's derived state and the embedding model live on this machine — one answer for
// every host (CLI, language server, backends), so they share one index: `<gitdir>/gitmem[/ws-<hash>]`
// (config `index.dir` wins), else `<root>/.gitmem`. Imports node:* only.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

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
 * The installed embedding model: `$GITMEM_MODEL_DIR`, else `models/all-MiniLM-L6-v2-q4` in a folder
 * at or above `from` (the running script's folder; `npm run setup` installs it next to dist/).
 * @returns undefined when none is found (semantic recall then reports the model missing).
 */
export function findModelDir(from: string | undefined): string | undefined {
  if (process.env.GITMEM_MODEL_DIR) return process.env.GITMEM_MODEL_DIR;
  if (!from) return undefined;
  let dir = resolve(from);
  for (let i = 0; i < 5; i++) {
    const candidate = join(dir, 'models', 'all-MiniLM-L6-v2-q4');
    if (existsSync(candidate)) return candidate;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}
