// Opening the workspace a CLI command names (`--dir`, else the current folder): discovery, the node
// fs confined to its root, index storage, the installed model and createMemory. The one place the
// CLI constructs platform objects for a Memory (platform/node-workspace.ts builds the shared part).
// `recall` and `get` run here too when no host answered them (cli/commands/recall.ts and get.ts have their
// arguments and asks the host first): the workspace opened in one step and the use case called
// directly; the git-reading variants (--as-of, --branch, --lineage) load their modules only then.
// Imported on demand by those commands, so a call a host answers never loads the workspace modules
// (the host client's bundle stands a "run cold" module in for this one, scripts/build.mjs).
// deps: service (createMemory; the recall use case and git-ops on demand), platform, core, cli
// (signals, commands/recall types) (cli layer).
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type LayoutName } from '../core/layout.js';
import { systemClock } from '../core/ports.js';
import { discoverWorkspace } from '../platform/discover.js';
import { assertWorkspace } from '../platform/workspace-guard.js';
import { createStderrLogger } from '../platform/logger.js';
import { installedModelDir, nodeWorkspace } from '../platform/node-workspace.js';
import { createMemory, type Memory } from '../service/memory.js';
import type { workerEmbedderFactory } from '../platform/worker-embedder.js';
import type { GetResult } from '../service/files/get.js';
import type { RecallOptions, RecallResponse } from '../service/recall/types.js';
import { type OpenedWorkspace } from './context.js';
import type { RecallCall } from './commands/recall.js';

export interface GlobalOptions {
  dir?: string;
  json?: boolean;
  debug?: boolean;
  /** false with `--no-host` (src/cli/host.ts). */
  host?: boolean;
  /** `--if-workspace`: outside a folder holding gitmem memory, do nothing and exit 0 (cli/main.ts). */
  ifWorkspace?: boolean;
}

export async function openWorkspace(
  g: GlobalOptions,
  options: { freshness?: 'scan' | 'manual'; layout?: LayoutName; embedWorker?: boolean | 'bulk' } = {},
): Promise<OpenedWorkspace> {
  const found = discoverWorkspace(g.dir, process.cwd());
  // Not a workspace (no git work tree, no markers; home or `/` never set up; a bare repository): say so
  // before anything is read or written there (R03, R04).
  assertWorkspace(found);
  const logger = createStderrLogger(g.debug === true);
  const platform = nodeWorkspace(found, { warn: (m) => logger.warn(m) });
  const memory = await createMemory({
    ...platform,
    ...(options.freshness ? { freshness: options.freshness } : {}),
    ...(options.embedWorker
      ? {
          // Imported when the first embedding is asked for: a keyword call never loads the embedder.
          createEmbedder: async (...a: Parameters<ReturnType<typeof workerEmbedderFactory>>) =>
            (await import('../platform/worker-embedder.js')).workerEmbedderFactory(
              options.embedWorker === 'bulk' ? { bulk: true } : {},
            )(...a),
        }
      : {}),
    // The installed model, searched upwards from this bundle (dist/ → the package's models/).
    defaultModelDir: installedModelDir(dirname(fileURLToPath(import.meta.url))),
    logger,
    clock: systemClock,
    ...(options.layout ? { layout: options.layout } : {}),
  });
  return { memory, root: platform.fs.root, gitdir: found.gitdir, workTree: found.workTree };
}

export async function open(g: GlobalOptions): Promise<Memory> {
  return (await openWorkspace(g)).memory;
}

/** A recall in this process: opened here in one step and recalled by the use case itself. */
export async function coldRecall(g: GlobalOptions, call: RecallCall, o: Record<string, any>): Promise<RecallResponse> {
  const [{ recall }] = await Promise.all([import('../service/recall/recall.js'), betweenWrites()]);
  let announced = false;
  const opts: RecallOptions = {
    ...call.options,
    ...(o.reveal ? { reveal: true } : {}),
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
        ? await (
            await import('../service/git-ops/as-of.js')
          ).branchRevision(opened.memory.context, { git: where, name: o.branch })
        : o.asOf;
    const asOf = rev !== undefined ? await import('../service/git-ops/as-of.js') : undefined;
    const res = asOf
      ? await asOf.recallAsOf(opened.memory.context, {
          git: where,
          rev: asOf.requireRevision(rev),
          query: call.query,
          options: opts,
        })
      : await recall(opened.memory.context, call.query, opts);
    if (o.lineage && rev === undefined)
      await (await import('../service/git-ops/lineage.js')).withLineage(opened.memory.context, where, res.results);
    else if (o.lineage) {
      // Lineage is per line of the current files; at another revision it is not served: say so.
      const why = 'lineage is not available with --as-of/--branch (it describes the current lines)';
      res.degraded = res.degraded ? `${res.degraded}; ${why}` : why;
    }
    if (o.reveal) await reveal(opened.memory, res.results);
    return res;
  } finally {
    await opened.memory.dispose();
  }
}

/** Ctrl-C in a call run in this process ends it between writes, never with a lock file left (U22). */
async function betweenWrites(): Promise<void> {
  (await import('./signals.js')).exitBetweenWrites();
}

/** A get in this process; `reveal`: the text as written (`get --reveal`). */
export async function coldGet(g: GlobalOptions, ref: string, reveal = false): Promise<GetResult> {
  await betweenWrites();
  const [memory, { get }] = await Promise.all([open(g), import('../service/files/get.js')]);
  return get(memory.context, { ref, ...(reveal ? { reveal: true } : {}) });
}

/** `recall --reveal`: each result's snippet (and context span) becomes its lines as written, read from the file. */
async function reveal(memory: Memory, results: RecallResponse['results']): Promise<void> {
  const { get } = await import('../service/files/get.js');
  const lines = async (ref: string) => (await get(memory.context, { ref, reveal: true })).text;
  for (const r of results) {
    r.snippet = await lines(`${r.path}:${r.startLine}-${r.endLine}`);
    if (r.contextSpan) {
      const span = r.contextSpan;
      span.text = await lines(`${r.path}:${span.startLine}-${span.endLine}`);
    }
  }
}
