// The error a sync merge with conflicts stops with, and what it tells the user to do. When this clone
// lacks gitmem's merge rules or driver (memory files were merged as plain text), the merge is computed
// once more with the rules and the driver given on git's command line only (`-c`, a temporary
// attributes file; nothing is written to the repository), so that the files the driver cannot merge
// either (the same line edited two ways, G02) are told apart from the ones `gitmem doctor --fix` would
// let merge by themselves (G07). A file removed on one side and changed on the other (no markers)
// gets its own steps (G11), and a file both added with different text a way to keep both (G14).
// deps: core, git (attributes, system-git), node:fs, node:os.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryError } from '../../core/errors.js';
import { DRIVER_NAME, driverCommand, mergeDriverStatus } from '../../git/attributes.js';
import { runGit } from '../../git/system-git.js';

/** What the conflict check needs to know besides the two commits. */
export interface ConflictContext {
  /** gitmem's `.gitattributes` rules for the workspace's layout (git/attributes.ts `attributeRules`). */
  readonly rules: readonly string[];
  /** The workspace folder relative to the work tree ('' at its root), for the rules' patterns. */
  readonly prefix: string;
  /** The running gitmem entry script, for the driver command when this clone registered none. */
  readonly cliScript?: string | undefined;
  /** `<remote>/<branch>`, the ref the user merges by hand. */
  readonly upstream: string;
  readonly env: Record<string, string>;
  /** The commit the sync's checkpoint made of uncommitted memory before the merge, if it made one. */
  readonly checkpoint?: string | undefined;
}

/**
 * What a stopped sync left behind (the first words of each conflict hint): the merge was not made,
 * and the checkpoint commit, when the sync made one, stays (L2: the hint said "nothing was changed"
 * after a checkpoint had committed the user's edits).
 */
function leftBehind(ctx: ConflictContext): string {
  return ctx.checkpoint
    ? `nothing was merged; your uncommitted memory was committed first (checkpoint ${ctx.checkpoint.slice(0, 7)})`
    : 'nothing was changed';
}

const list = (files: readonly string[]) =>
  `${files.slice(0, 5).join(', ')}${files.length > 5 ? ` and ${files.length - 5} more` : ''}`;

/** A rule of the `.gitattributes` block as a line of an attributes file read at the work tree's top. */
function atTop(rule: string, prefix: string): string {
  if (!prefix) return rule;
  return rule.startsWith('/') ? `/${prefix}${rule}` : `${prefix}/${rule}`;
}

/** The driver command for the re-run: the registered one when it can run, else the running gitmem's. */
async function commandFor(cwd: string, cliScript: string | undefined): Promise<string | undefined> {
  const status = await mergeDriverStatus(cwd).catch(() => undefined);
  if (status?.registered && !status.stale && status.command) return status.command;
  // `gitmem merge-file` found on PATH is a guess: a driver that cannot start would report every
  // memory file as a true conflict. Without the running script, the re-run is not made.
  return cliScript ? driverCommand(cliScript) : undefined;
}

/**
 * The files still in conflict when `ours` and `theirs` are merged with gitmem's rules and driver, or
 * undefined when that merge could not be computed (no driver command, git failed).
 */
async function conflictsWithDriver(
  cwd: string,
  ours: string,
  theirs: string,
  ctx: ConflictContext,
): Promise<string[] | undefined> {
  const command = await commandFor(cwd, ctx.cliScript);
  if (!command) return undefined;
  const dir = await mkdtemp(join(tmpdir(), 'gitmem-merge-rules-'));
  try {
    const attributes = join(dir, 'attributes');
    // Lower precedence than the work tree's own `.gitattributes`: rules the user wrote there still win.
    await writeFile(attributes, `${ctx.rules.map((r) => atTop(r, ctx.prefix)).join('\n')}\n`);
    const r = await runGit(
      cwd,
      [
        '-c',
        `merge.${DRIVER_NAME}.driver=${command}`,
        '-c',
        `core.attributesFile=${attributes}`,
        'merge-tree',
        '--write-tree',
        '--name-only',
        '--no-messages',
        ours,
        theirs,
      ],
      { env: ctx.env },
    );
    if (r.code === 0) return [];
    if (r.code !== 1) return undefined;
    return [...new Set(r.stdout.split('\n').filter(Boolean).slice(1))];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** How a conflicted file came to conflict, besides the same lines edited two ways. */
interface ConflictKinds {
  /** modify/delete (no markers in the file; git leaves the changed version), by the side that removed it. */
  readonly removed: Map<string, 'here' | 'remote'>;
  /** add/add: a file both sides created with different text (two memories under one id, G14). */
  readonly addedBoth: Set<string>;
}

/**
 * The conflicted files git reports as modify/delete or add/add. Read from `git merge-tree -z`'s
 * informational messages; empty when they cannot be read.
 */
async function conflictKinds(
  cwd: string,
  ours: string,
  theirs: string,
  env: Record<string, string>,
): Promise<ConflictKinds> {
  const removed = new Map<string, 'here' | 'remote'>();
  const found = { removed, addedBoth: new Set<string>() };
  const r = await runGit(cwd, ['merge-tree', '--write-tree', '--name-only', '-z', ours, theirs], { env });
  if (r.code !== 1) return found;
  const parts = r.stdout.split('\0');
  let i = parts.indexOf('', 1); // the tree, the conflicted names, then an empty field
  if (i < 0) return found;
  for (i++; i < parts.length;) {
    const n = Number(parts[i]);
    if (!Number.isInteger(n) || n < 1) break;
    const paths = parts.slice(i + 1, i + 1 + n);
    const type = parts[i + 1 + n];
    const message = parts[i + 2 + n] ?? '';
    i += n + 3;
    if (!paths[0]) continue;
    if (message.startsWith('CONFLICT (add/add):')) found.addedBoth.add(paths[0]);
    if (type !== 'CONFLICT (modify/delete)') continue;
    const by = / deleted in ([0-9a-f]+) and modified in /.exec(message)?.[1];
    removed.set(paths[0], by && ours.startsWith(by) ? 'here' : 'remote');
  }
  return found;
}

/** What to do by hand with the files left in conflict, and why they are. */
function byHand(
  left: readonly string[],
  { removed, addedBoth }: ConflictKinds,
  upstream: string,
): { why: string; steps: string } {
  const marked = left.filter((f) => !removed.has(f));
  const gone = left.filter((f) => removed.has(f));
  const why: string[] = [];
  const steps: string[] = [];
  if (marked.length) {
    if (marked.some((f) => !addedBoth.has(f))) why.push('the same lines were edited two ways');
    steps.push(
      `resolve the conflict markers in ${marked.length === 1 && !gone.length ? 'that file' : list(marked)} by hand, git add ${marked.length === 1 ? 'it' : 'them'}`,
    );
  }
  if (gone.length) {
    why.push('a file was removed on one side and changed on the other');
    for (const f of gone.slice(0, 5)) {
      const side =
        removed.get(f) === 'here' ? 'removed here, changed in the remote' : 'changed here, removed in the remote';
      steps.push(`for ${f} (${side}; no markers) keep it with git add or drop it with git rm`);
    }
  }
  const twins = left.filter((f) => addedBoth.has(f));
  const rename = twins.length
    ? `; or, to keep both memories, give yours a new name instead: gitmem mv ${twins[0]} <new name>.md, set its id: line to that name, then gitmem sync again (no git merge needed)`
    : '';
  if (twins.length) why.push(`${list(twins)} was added in both clones with different text (two memories under one id)`);
  return {
    why: why.join('; '),
    steps: `run git merge ${upstream}, ${steps.join('; ')}${marked.length && !gone.length ? ' and' : ','} git commit, then gitmem sync again${rename}`,
  };
}

/**
 * The `git.conflict` error for a merge of `ours` and `theirs` that git left with conflicts in `files`.
 * `rulesMissing`: some of those files had no gitmem merge rule, or this clone has no driver.
 * `data.files` names the files the user must resolve by hand; `data.textConflicts` (when it differs)
 * every file of the plain-text merge.
 */
export async function syncConflictError(
  cwd: string,
  ours: string,
  theirs: string,
  files: readonly string[],
  rulesMissing: boolean,
  ctx: ConflictContext,
): Promise<MemoryError> {
  const left = rulesMissing ? await conflictsWithDriver(cwd, ours, theirs, ctx) : [...files];
  if (left === undefined) {
    return new MemoryError(
      'git.conflict',
      `sync stopped: merging the remote conflicts in ${files.length} file(s): ${list(files)}`,
      {
        data: { files: [...files] },
        hint: `${leftBehind(ctx)}; this clone lacks gitmem's merge rules or driver, so memory files were merged as plain text: run gitmem doctor --fix, then gitmem sync again`,
      },
    );
  }
  if (left.length === 0) {
    return new MemoryError(
      'git.conflict',
      `sync stopped: merging the remote conflicts in ${files.length} file(s): ${list(files)}`,
      {
        data: { files: [...files] },
        hint: `${leftBehind(ctx)}; this clone lacks gitmem's merge rules or driver, so memory files were merged as plain text (with them, every one of these merges): run gitmem doctor --fix, then gitmem sync again`,
      },
    );
  }
  const settled = files.filter((f) => !left.includes(f));
  const kinds = await conflictKinds(cwd, ours, theirs, ctx.env);
  const gone = left.filter((f) => kinds.removed.has(f));
  const twins = left.filter((f) => kinds.addedBoth.has(f));
  const todo = byHand(left, kinds, ctx.upstream);
  return new MemoryError(
    'git.conflict',
    `sync stopped: ${left.length} file(s) changed in both clones in ways no merge rule can settle: ${list(left)}`,
    {
      data: {
        files: left,
        ...(settled.length ? { textConflicts: [...files] } : {}),
        ...(gone.length ? { removedOnOneSide: gone } : {}),
        ...(twins.length ? { addedInBoth: twins } : {}),
      },
      hint: settled.length
        ? `${leftBehind(ctx)}; gitmem's merge rules would merge the other ${settled.length} file(s), but this clone lacks them: run gitmem doctor --fix, then ${todo.steps}`
        : `${leftBehind(ctx)}; ${todo.why}: ${todo.steps}`,
    },
  );
}
