// `gitmem diff <rev> [rev2]`: the memory diff between two revisions, or a revision and the work tree,
// in memory terms. Rendering only; behaviour lives in service/git-ops/diff.ts. deps: service, cli.
import type { Command } from 'commander';
import { requireRevision } from '../../service/git-ops/as-of.js';
import { diffMemory, type MemoryDiffReport } from '../../service/git-ops/diff.js';
import { maskMemoryDiff } from '../../service/trust/shown-changes.js';
import { short } from '../commit-report.js';
import { withWorkspace, type GitCommandContext } from '../context.js';
import { bold, cyan, dim, out, printJson, red, yellow } from '../output.js';

/** Add `diff` (with its action) to `program`. */
export function diffCommand(program: Command, ctx: GitCommandContext): Command {
  return program
    .command('diff')
    .description('memory diff between two revisions, or a revision and the work tree, in memory terms')
    .argument('<rev>', 'older revision (commit, branch, tag, HEAD~N)')
    .argument('[rev2]', 'newer revision (default: the work tree)')
    .action(async (rev: string, rev2: string | undefined) => {
      // Shown masked (R142): a file name, id, value or line holding a credential.
      const report = await withWorkspace(ctx, async ({ memory, gitdir, workTree }) =>
        maskMemoryDiff(
          await diffMemory(memory.context, {
            git: { gitdir, workTree },
            from: requireRevision(rev),
            to: rev2 === undefined ? undefined : requireRevision(rev2),
          }),
        ),
      );
      if (ctx.json()) printJson(report);
      else renderDiff(report);
    });
}

const show = (v: unknown) => (v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v));

function renderDiff(r: MemoryDiffReport): void {
  const to = r.to ? `${r.to.rev} (${short(r.to.oid)})` : 'work tree';
  out(bold(`Memory diff ${r.from.rev} (${short(r.from.oid)}) → ${to}`));
  if (r.changes.length === 0) {
    out('No memory changes.');
    return;
  }
  for (const c of r.changes) {
    const label = c.id ? `${c.kind} ${c.id}` : c.kind;
    const mark = c.change === 'added' ? cyan('added') : c.change === 'removed' ? red('removed') : yellow('changed');
    out(`${mark} ${label} ${dim(c.path)}${c.renamedFrom ? dim(` (moved from ${c.renamedFrom})`) : ''}`);
    for (const f of c.fields) out(`    ${f.key}: ${show(f.before)} → ${show(f.after)}`);
    for (const s of c.sections) out(`    ## ${s.name}: ${show(s.before?.trim())} → ${show(s.after?.trim())}`);
    if (c.change === 'changed' && c.bodyChanged && c.kind !== 'daily' && c.sections.length === 0) {
      out(dim(`    body changed (+${c.linesAdded.length}${c.truncated ? '+' : ''} / -${c.linesRemoved} lines)`));
    }
    if (c.kind === 'daily' || c.kind === 'long_term' || c.kind === 'note') {
      for (const l of c.linesAdded) out(`    + ${l.text}`);
      if (c.truncated) out(dim('    …'));
    }
  }
  out(dim(`${r.summary.added} added, ${r.summary.changed} changed, ${r.summary.removed} removed`));
}
