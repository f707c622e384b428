// The derived-state folder a CLI call from here would use, found before the CLI bundle is loaded:
// the workspace (`--dir`, else the git work tree around the current folder) and its index folder
// (platform/locations.ts indexDirFor, with the config's `index.dir` read without validating; the
// workspace re-checks it). Used by the host client (the host socket lives there) and the process
// entry (the code cache lives there). deps: platform (discover, locations), node:*.
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { discoverWorkspace } from '../platform/discover.js';
import { indexDirFor } from '../platform/locations.js';

/** `index.dir` of the workspace's gitmem.config.json, read without validating (the host re-checks it). */
function configuredIndexDir(root: string): string | undefined {
  try {
    const p = join(root, 'gitmem.config.json');
    const st = statSync(p);
    if (!st.isFile() || st.size > 1024 * 1024) return undefined;
    const j = JSON.parse(readFileSync(p, 'utf8').replace(/^\uFEFF/, '')) as { index?: { dir?: unknown } };
    return typeof j?.index?.dir === 'string' ? j.index.dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The workspace root (real path), its derived-state folder and the git work tree that holds it (real
 * path; absent outside one) for `--dir` (or the current folder).
 * @throws Error when the folder cannot be resolved (the message says why).
 */
export function workspaceStateDir(dir: string | undefined): { root: string; stateDir: string; workTree?: string } {
  const found = discoverWorkspace(dir, process.cwd());
  const root = realpathSync(found.root);
  const stateDir = indexDirFor(root, found.workTree, found.gitdir, configuredIndexDir(root));
  return { root, stateDir, ...(found.workTree ? { workTree: realpathSync(found.workTree) } : {}) };
}

/**
 * How many chunks the index in `stateDir` holds, read from its manifest.json without validating it
 * (undefined when there is no readable manifest): a size hint taken before the CLI bundle loads.
 */
export function indexedChunks(stateDir: string): number | undefined {
  try {
    const p = join(stateDir, 'manifest.json');
    const st = statSync(p);
    if (!st.isFile() || st.size > 64 * 1024) return undefined;
    const n = (JSON.parse(readFileSync(p, 'utf8')) as { chunkCount?: unknown } | null)?.chunkCount;
    return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
  } catch {
    return undefined;
  }
}
