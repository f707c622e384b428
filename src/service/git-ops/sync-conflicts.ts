// The error a sync merge with conflicts stops with, and what it tells the user to do. When this clone
// lacks gitmem's merge rules or driver (memory files were merged as plain text), the merge is computed
// once more with the rules and the driver given on git's command line only (`-c`, a temporary
// attributes file; nothing is written to the repository), so that the files the driver cannot merge
// either (the same line edited two ways, G02) are told apart from the ones `gitmem doctor --fix` would
// let merge by themselves (G07). deps: core, git (attributes, system-git), node:fs, node:os.
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
  const byHand = (which: readonly string[]) =>
    `run git merge ${ctx.upstream}, resolve the conflict markers in ${which.length === 1 ? 'that file' : 'those files'} by hand, git add ${which.length === 1 ? 'it' : 'them'} and git commit, then gitmem sync again`;
  const left = rulesMissing ? await conflictsWithDriver(cwd, ours, theirs, ctx) : [...files];
  if (left === undefined) {
    return new MemoryError(
      'git.conflict',
      `sync stopped: merging the remote conflicts in ${files.length} file(s): ${list(files)}`,
      {
        data: { files: [...files] },
        hint: "nothing was changed; this clone lacks gitmem's merge rules or driver, so memory files were merged as plain text: run gitmem doctor --fix, then gitmem sync again",
      },
    );
  }
  if (left.length === 0) {
    return new MemoryError(
      'git.conflict',
      `sync stopped: merging the remote conflicts in ${files.length} file(s): ${list(files)}`,
      {
        data: { files: [...files] },
        hint: "nothing was changed; this clone lacks gitmem's merge rules or driver, so memory files were merged as plain text (with them, every one of these merges): run gitmem doctor --fix, then gitmem sync again",
      },
    );
  }
  const settled = files.filter((f) => !left.includes(f));
  return new MemoryError(
    'git.conflict',
    `sync stopped: ${left.length} file(s) changed in both clones in ways no merge rule can settle: ${list(left)}`,
    {
      data: { files: left, ...(settled.length ? { textConflicts: [...files] } : {}) },
      hint: settled.length
        ? `nothing was changed; gitmem's merge rules would merge the other ${settled.length} file(s), but this clone lacks them: run gitmem doctor --fix, then ${byHand(left)}`
        : `nothing was changed; the same lines were edited two ways: ${byHand(left)}`,
    },
  );
}
