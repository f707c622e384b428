// Memory files git keeps out of the work tree: the paths outside a sparse checkout (skip-worktree)
// that are tracked but absent. A use case that edits links across the workspace (`gitmem mv`) cannot
// see them on disk, so it reads them from the git index here and refuses a change that would leave
// them broken (docs/bad-inputs.md R80). deps: core, git (system git), engine/load (git context).
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { classify } from '../../core/layout.js';
import type { RelPath } from '../../core/paths.js';
import { gitContext } from '../../engine/load/git-context.js';
import { parseFiles } from '../../engine/load/parse-cache.js';
import type { MemoryWorkspace } from '../../core/workspace.js';
import { runGit } from '../../git/system-git.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { planMoves } from './rename.js';

/** A memory file tracked by git but not in the work tree: workspace-relative path, its text in the index. */
export interface HeldFile {
  readonly path: RelPath;
  readonly text: string;
}

/**
 * The memory files git keeps out of the work tree (skip-worktree entries absent from `present`), with
 * their text as the index has it. Empty outside git. `present` holds the workspace-relative paths on disk.
 * @throws MemoryError `git.unavailable` when the repository needs the system git and there is none.
 */
export async function heldMemoryFiles(ctx: MemoryContext, present: ReadonlySet<string>): Promise<HeldFile[]> {
  if (!ctx.git) return [];
  let g: ReturnType<typeof gitContext>;
  try {
    g = gitContext({ root: ctx.fs.root, loaded: ctx.loaded }, ctx.git);
  } catch {
    return [];
  }
  const env = { GIT_DIR: g.repo.gitdir, GIT_WORK_TREE: g.repo.dir };
  const prefix = g.scope.prefix;
  const r = await runGit(g.repo.dir, ['ls-files', '-v', '-z', '--', prefix || '.'], { env });
  if (r.code !== 0) return [];
  const out: HeldFile[] = [];
  for (const rec of r.stdout.split('\0')) {
    // `S` marks skip-worktree (outside the sparse set); other tags are files in the work tree.
    if (rec.length < 3 || rec[0] !== 'S') continue;
    const repoPath = rec.slice(2);
    const rel = prefix ? repoPath.slice(prefix.length + 1) : repoPath;
    if (present.has(rel) || !g.scope.accept(rel)) continue;
    const blob = await runGit(g.repo.dir, ['cat-file', 'blob', `:${repoPath}`], { env });
    if (blob.code === 0) out.push({ path: rel as RelPath, text: blob.stdout });
  }
  return out;
}

const SPARSE_HINT =
  'bring them into the work tree first (`git sparse-checkout add <folder>`, or `git sparse-checkout disable`), then move again';

/**
 * Refuse moving `from` to `to` when a memory file git keeps out of the work tree would be left behind
 * (it lies under the folder `from`) or would keep a link to a moved path (R80). `files` holds the
 * workspace-relative paths on disk, `ws` the parsed workspace.
 * @throws MemoryError `entry.invalid` naming the held files; nothing has been moved.
 */
export async function refuseHeldBreaks(
  ctx: MemoryContext,
  ws: MemoryWorkspace,
  move: { readonly from: RelPath; readonly to: RelPath },
  files: ReadonlySet<string>,
): Promise<void> {
  const held = await heldMemoryFiles(ctx, files);
  if (held.length === 0) return;
  const inside = held.filter((h) => h.path.startsWith(`${move.from}/`)).map((h) => h.path);
  if (inside.length)
    throw heldError(move, inside, 'lie in the folder but outside the sparse checkout; they would be left behind');
  const layout = ctx.loaded.layout;
  const all = parseFiles(
    [
      ...ws.docs().map((d) => ({ path: d.path, kind: d.kind, text: d.text, hash: contentHash(d.text) })),
      ...held.flatMap((h) => {
        const kind = classify(h.path, layout);
        return kind ? [{ path: h.path, kind, text: h.text, hash: contentHash(h.text) }] : [];
      }),
    ],
    ctx.config,
  );
  const heldPaths = new Set<string>(held.map((h) => h.path));
  const plan = planMoves(all, [move], new Set([...files, ...heldPaths]));
  const linking = [...new Set(plan.edits.map((e) => e.path).filter((p) => heldPaths.has(p)))].sort();
  if (linking.length)
    throw heldError(move, linking, 'link to it and are outside the sparse checkout; their links would break');
}

function heldError(move: { from: RelPath; to: RelPath }, paths: readonly string[], why: string): MemoryError {
  return new MemoryError(
    'entry.invalid',
    `cannot move ${move.from} to ${move.to}: ${paths.length === 1 ? 'this memory file' : `${paths.length} memory files`} ${why}; nothing moved:\n  ${paths.slice(0, 5).join('\n  ')}`,
    { data: { held: paths }, hint: SPARSE_HINT },
  );
}
