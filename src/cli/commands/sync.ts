// CLI commands for sharing memory through a git remote: `sync`, the `merge-file` merge driver, and
// the merge setup used by `init --merge-driver` and `doctor --fix`. Rendering only; behaviour lives in
// service/git-ops/remote-sync.ts, service/init/merge-setup.ts and git/merge-file.ts. deps: service, git, core.
import { realpathSync } from 'node:fs';
import type { Command } from 'commander';
import type { MemoryFs } from '../../core/ports.js';
import type { Layout } from '../../core/layout.js';
import {
  applyMergeSetup,
  mergeFiles,
  mergeSetupStatus,
  type MergeSetupResult,
  type MergeSetupStatus,
} from '../../service/init/merge-setup.js';
import { bundleFile } from '../../platform/bundle-file.js';
import { syncMemory, type SyncReport } from '../../service/git-ops/remote-sync.js';
import { maskSyncReport } from '../../service/trust/shown-changes.js';
import { reportCommitted } from '../commit-report.js';
import { withWorkspace, type CliContext } from '../context.js';
import { bold, cyan, dim, out, red, yellow, err } from '../output.js';

const short = (oid: string) => oid.slice(0, 7);

/** The gitmem entry script (dist/cli.cjs) beside the running bundle, for the merge-driver command line. */
function runningCli(): string | undefined {
  const cli = bundleFile('cli.cjs');
  return cli === undefined ? undefined : realpathSync(cli);
}

/** `init`/`doctor --fix`: write the .gitattributes block and, when asked, register the driver. */
export function setupMerges(
  fs: MemoryFs,
  layout: Layout,
  workTree: string | undefined,
  driver: boolean,
): Promise<MergeSetupResult> {
  return applyMergeSetup(fs, layout, { workTree, driver, cliScript: runningCli() });
}

/** `doctor`: where the merge setup stands. */
export function mergeStatus(fs: MemoryFs, layout: Layout, workTree: string | undefined): Promise<MergeSetupStatus> {
  return mergeSetupStatus(fs, layout, workTree);
}

/** Add `sync` and `merge-file` to `program`. */
export function registerSyncCommands(program: Command, ctx: CliContext): void {
  program
    .command('sync')
    .description(
      'share memory through the git remote: checkpoint → fetch → merge → re-index → push (exit 4 dirty tree, 5 conflict, 6 push rejected)',
    )
    .option('--remote <name>', 'git remote (default: the branch upstream, else origin)')
    .option('--branch <name>', 'remote branch (default: the upstream branch, else the current branch name)')
    .option('--rebase', 'rebase local commits onto the remote instead of a merge commit (needs a clean tracked tree)')
    .option('--no-push', 'bring memory in only')
    .action(async (o: { remote?: string; branch?: string; rebase?: boolean; push?: boolean }) => {
      const { res, cap } = await withWorkspace(ctx, async ({ memory, gitdir, workTree }) => ({
        res: await syncMemory(memory.context, {
          git: { gitdir, workTree },
          index: (options) => memory.index(options),
          ...(o.remote ? { remote: o.remote } : {}),
          ...(o.branch ? { branch: o.branch } : {}),
          ...(o.rebase ? { rebase: true } : {}),
          ...(o.push === false ? { noPush: true } : {}),
          cliScript: runningCli(),
          ...(ctx.json() ? {} : { onIndexProgress: indexProgressLines() }),
        }),
        cap: memory.config.limits.maxFileBytes,
      }));
      reportCommitted(maskSyncReport(res), cap, ctx.json(), renderSync);
    });

  program
    .command('merge-file')
    .description("git merge driver for memory files: keeps both sides' new bullets once; exits 1 on a true conflict")
    .argument('<base>', 'common ancestor (%O)')
    .argument('<ours>', 'our version, overwritten with the result (%A)')
    .argument('<theirs>', 'their version (%B)')
    .action(async (base: string, ours: string, theirs: string) => {
      const conflicts = await mergeFiles(base, ours, theirs);
      if (conflicts > 0) {
        err(
          `gitmem merge-file: ${conflicts} conflict${conflicts === 1 ? '' : 's'} left with markers (the same line edited two ways)`,
        );
        process.exitCode = 1;
      }
    });
}

function renderSync(r: SyncReport): void {
  if (r.checkpoint)
    out(
      `${bold('checkpoint')} ${short(r.checkpoint.oid)} (${r.checkpoint.files} memory file${r.checkpoint.files === 1 ? '' : 's'})`,
    );
  out(
    `${bold('remote')}     ${r.remote}/${r.remoteBranch} ${dim(`(${r.strategy}${r.attempts > 1 ? `, ${r.attempts} rounds` : ''})`)}`,
  );
  out(`${bold('in')}         ${r.commitsIn.length} commit${r.commitsIn.length === 1 ? '' : 's'}`);
  for (const c of r.commitsIn.slice(-10)) out(`  ${yellow(short(c.oid))} ${c.summary}`);
  out(
    `${bold('out')}        ${r.commitsOut.length} commit${r.commitsOut.length === 1 ? '' : 's'}${r.pushed ? '' : dim(' (not pushed)')}`,
  );
  for (const c of r.commitsOut.slice(-10)) out(`  ${yellow(short(c.oid))} ${c.summary}`);
  if (r.memoryDiff) {
    for (const c of r.memoryDiff.changes) {
      const mark = c.change === 'added' ? cyan('added') : c.change === 'removed' ? red('removed') : yellow('changed');
      out(`  ${mark} ${c.id ? `${c.kind} ${c.id}` : c.kind} ${dim(c.path)}`);
    }
  }
  if (r.reindexed) out(dim(reindexLine(r.reindexed)));
  for (const f of r.incomingFindings) {
    const what = f.finding === 'duplicate' ? 'repeats' : `may contradict (${f.reasons!.join(', ')} differs)`;
    out(
      `  ${yellow(f.finding === 'duplicate' ? 'duplicate' : 'possible conflict')} ${f.id} ${what} ${f.with.id} ${dim(`(${f.path}, ${f.with.path}; similarity ${f.similarity})`)}`,
    );
    out(dim(`    ${f.hint}`));
  }
  out(r.commitsIn.length === 0 && !r.pushed ? 'Memory is in sync with the remote.' : 'Memory synced.');
}

/** What the index run after the merge did: a clone's first full index, or the files re-indexed; chunks embedded. */
function reindexLine(x: NonNullable<SyncReport['reindexed']>): string {
  const embedded = x.embedded > 0 ? `, embedded ${x.embedded} chunk(s)` : '';
  if (x.first) return `first index: ${x.files} file(s)${embedded} (${x.ms} ms)`;
  return `re-indexed ${x.upserted} file(s), removed ${x.removed}${embedded} (${x.ms} ms)`;
}

/** Phases of fewer items than this print no progress: a sync that re-indexes a few files says only its result. */
const QUIET_BELOW = 100;

/**
 * Progress of the index run on stderr: a line per phase of at least {@link QUIET_BELOW} items and
 * per tenth of it (`gitmem: indexing: embed 120/1330`).
 */
function indexProgressLines(): (phase: string, done: number, total: number) => void {
  let last = '';
  return (phase, done, total) => {
    if (total < QUIET_BELOW) return;
    const step = `${phase} ${total > 0 ? Math.floor((done / total) * 10) : ''}`;
    if (step === last) return;
    last = step;
    err(`gitmem: indexing: ${phase}${total > 0 ? ` ${done}/${total}` : '…'}`);
  };
}
