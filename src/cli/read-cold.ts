// `recall` and `get` run in this process, when no host answered them (cli/read-commands.ts has their
// arguments and asks the host first): the workspace opened here in one step and the use case called
// directly; the git-reading variants (--as-of, --branch, --lineage) load their modules only then.
// Imported on demand by read-commands, so a call a host answers never loads the workspace modules.
// deps: service (the recall use case; git-ops on demand), cli (open-workspace, signals, read-commands types).
import type { GetResult } from '../service/files/get.js';
import type { RecallOptions, RecallResponse } from '../service/recall/types.js';
import type { GlobalOptions } from './open-workspace.js';
import type { RecallCall } from './read-commands.js';

/** A recall in this process: opened here in one step and recalled by the use case itself. */
export async function coldRecall(g: GlobalOptions, call: RecallCall, o: Record<string, any>): Promise<RecallResponse> {
  const [{ openWorkspace }, { recall }] = await Promise.all([
    import('./open-workspace.js'),
    import('../service/recall/recall.js'),
    betweenWrites(),
  ]);
  let announced = false;
  const opts: RecallOptions = {
    ...call.options,
    // Tell a person why the first recall on a new workspace takes a while.
    onEmbedProgress: (done: number, total: number) => {
      if (done === 0 && total > 16 && !g.json) {
        if (!announced)
          process.stderr.write(`gitmem: note: embedding ${total} new or changed chunks before answering…\n`);
        announced = true;
      }
    },
  };
  const opened = await openWorkspace(g);
  try {
    // Revisions and lineage read git: their modules load only for those calls.
    const where = { gitdir: opened.gitdir, workTree: opened.workTree };
    const rev =
      o.branch !== undefined
        ? await (await import('../service/git-ops/as-of.js')).branchRevision(opened.memory, where, o.branch)
        : o.asOf;
    const asOf = rev !== undefined ? await import('../service/git-ops/as-of.js') : undefined;
    const res = asOf
      ? await asOf.recallAsOf(opened.memory, where, asOf.requireRevision(rev), call.query, opts)
      : await recall(opened.memory.context, call.query, opts);
    if (o.lineage && rev === undefined)
      await (await import('../service/git-ops/lineage.js')).withLineage(opened.memory, where, res.results);
    else if (o.lineage) {
      // Lineage is per line of the current files; at another revision it is not served: say so.
      const why = 'lineage is not available with --as-of/--branch (it describes the current lines)';
      res.degraded = res.degraded ? `${res.degraded}; ${why}` : why;
    }
    return res;
  } finally {
    await opened.memory.dispose();
  }
}

/** Ctrl-C in a call run in this process ends it between writes, never with a lock file left (U22). */
async function betweenWrites(): Promise<void> {
  (await import('./signals.js')).exitBetweenWrites();
}

/** A get in this process. */
export async function coldGet(g: GlobalOptions, ref: string): Promise<GetResult> {
  const [{ open }] = await Promise.all([import('./open-workspace.js'), betweenWrites()]);
  return (await open(g)).get(ref);
}
