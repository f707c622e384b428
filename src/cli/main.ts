// The full CLI program: argv → command → service call → output (exit codes: cli/exit.ts). The process
// entry is cli/bin.ts, which runs recall, get, hook prompt and context itself (cli/read-commands.ts
// owns the recall and get actions); this module registers them too, for its help and parse errors.
// The workspace (service, engine) is imported when a command opens it, not at start.
// deps: service, platform, core.
import { Command, CommanderError, Option } from 'commander';
import { ENTRY_TYPES } from '../core/document.js';
import { LAYOUT_NAMES, layoutPreset, type LayoutName } from '../core/layout.js';
import { systemClock } from '../core/ports.js';
import { discoverWorkspace } from '../platform/discover.js';
import { createNodeFs } from '../platform/node-fs.js';
import { exitBetweenWrites, exitWhenNoLock } from './signals.js';
import { bold, dim, out, yellow, printDiagnostics, printJson, renderPossibleConflict, err } from './output.js';
import { type CliContext } from './context.js';
import { savedNote, vectorsLine } from './index-report.js';
import { type GlobalOptions, openWorkspace, open } from './open-workspace.js';
import { collect, progressBar } from './options.js';
import { hostStatus } from './host.js';
import { startupStatus } from './startup-cost.js';
import { reportFailure } from './exit.js';
import { dashTextHint, safeUsageMessage } from './usage-text.js';
import { baseProgram, getCommand, readCommandOf, recallCommand } from './read-commands.js';

/**
 * End the process by `sig` with its default action (no exit handlers, no waiting for a native
 * session run in a worker, which process.exit would do). Falls back to exit code 128 + signal
 * number when another listener keeps the signal from ending the process.
 */
function raise(sig: NodeJS.Signals): never {
  process.removeAllListeners(sig);
  process.kill(process.pid, sig);
  process.exit(sig === 'SIGTERM' ? 143 : 130);
}

/** Commands that handle SIGINT / SIGTERM themselves (a clean stop that saves what they hold). */
const OWN_SIGNALS = new Set(['watch', 'index', 'mcp', 'lsp']);

/** How the program runs. */
export interface ProgramOptions {
  /** argv names recall or get: register only the commands of this module (see cli/commands/register.ts). */
  readonly readOnly?: boolean;
}

export async function buildProgram(programOptions: ProgramOptions = {}): Promise<Command> {
  // A parser error quotes what it rejects: one line, no credential (U42); set before any command
  // is added, since each takes the program's output settings when it is made.
  const program = baseProgram().configureOutput({
    outputError: (str, write) => {
      const message = safeUsageMessage(str.replace(/\n$/, ''));
      const hint = dashTextHint(str.replace(/\n$/, ''));
      write(`${message.replace(/^error: /, 'gitmem: error: ')}\n${hint ? `  hint: ${hint}\n` : ''}`);
    },
  });

  const g = () => program.opts<GlobalOptions>();
  const ctx: CliContext = {
    open: (options) => openWorkspace(g(), options),
    json: () => g().json === true,
    debug: () => g().debug === true,
    dir: () => g().dir,
  };

  program
    .command('init')
    .description('scaffold MEMORY.md, DREAMS.md, CURRENT_STATE.md and folders; never overwrites')
    .addOption(
      new Option(
        '--layout <name>',
        'workspace layout (default: the configured or detected one; "default" in an empty folder)',
      ).choices(LAYOUT_NAMES as string[]),
    )
    .option('--merge-driver', "register gitmem's merge driver for memory files in this repository's git config")
    .action(async (o: { layout?: LayoutName; mergeDriver?: boolean }) => {
      const found = discoverWorkspace(g().dir, process.cwd());
      const { mkdirSync } = await import('node:fs');
      try {
        mkdirSync(found.root, { recursive: true });
      } catch {
        // a file in the way (EEXIST, ENOTDIR): createNodeFs says so (H07)
      }
      const fs = createNodeFs(found.root);
      const [{ chooseInitLayout, initWorkspace }, { setupMerges }] = await Promise.all([
        import('../service/init/scaffold.js'),
        import('./commands/sync.js'),
      ]);
      const layout = await chooseInitLayout(fs, o.layout);
      const res = await initWorkspace(fs, { layout, clock: systemClock, inGit: found.gitdir !== undefined });
      // Merge rules: union for append-only files, the gitmem driver (registered on request) for the rest.
      const merges = await setupMerges(fs, layoutPreset(res.layout), found.workTree, o.mergeDriver === true);
      if (g().json) printJson({ root: found.root, ...res, merges });
      else {
        for (const p of res.created) out(`created  ${p}`);
        for (const p of res.existing) out(dim(`exists   ${p}`));
        if (merges.attributesWritten) out('wrote    .gitattributes (merge rules for memory files)');
        if (merges.driverRegistered) out(`merge driver registered in git config: ${merges.driverRegistered}`);
        out(`Workspace ready (${res.layout} layout) in ${found.root}`);
      }
    });

  // The read commands run whole in the process entry (cli/bin.ts); here for help and parse errors.
  recallCommand(program, g);
  getCommand(program, g);

  program
    .command('remember')
    .description('write a typed memory entry (deduplicated against entries of the same type)')
    .argument('<text...>', 'the memory')
    .addOption(
      new Option('--type <type>', 'memory type').choices(ENTRY_TYPES as unknown as string[]).default('learning'),
    )
    .option('--tag <tag>', 'tag (repeatable, comma-separated)', collect)
    .option('--file <path>', 'code file the memory is about (repeatable)', collect)
    .option('--title <title>', 'title (default: the first words of the text)')
    .action(async (words: string[], o: Record<string, any>) => {
      const mem = await open(g());
      const res = await mem.remember({
        text: words.join(' '),
        type: o.type,
        tags: o.tag,
        files: o.file,
        title: o.title,
      });
      if (g().json) printJson(res);
      else if (res.status === 'duplicate') out(`Duplicate of ${res.duplicateOf} (${res.path}); nothing written.`);
      else {
        out(`Remembered ${res.id} → ${res.path}`);
        renderPossibleConflict(res.possible_conflict, res.id);
      }
    });

  program
    .command('validate')
    .description('check front-matter, ids and links; exits 1 when there are errors')
    .argument('[paths...]', 'memory files to check (default: all)')
    .option('--code', 'also check the code memories cite (as `gitmem verify`): stale ones as memory.code.stale')
    .action(async (paths: string[], o: { code?: boolean }) => {
      const opened = await openWorkspace(g());
      const mem = opened.memory;
      const diags = await mem.validate(paths, o.code ? { code: true } : {});
      // A symlinked memory folder: what it does to git (R02), when the whole workspace is checked.
      if (!paths.length) {
        const { linkedFolderDiagnostics } = await import('../service/git-ops/linked-folders.js');
        diags.push(...(await linkedFolderDiagnostics(mem, opened)));
      }
      printDiagnostics(diags, g().json);
    });

  program
    .command('index')
    .description('bring the derived index (keyword segments and vectors) up to date, or rebuild it')
    .option('--rebuild', 'discard the persisted index and rebuild from the markdown')
    .option(
      '--paranoid',
      'after the incremental update, rebuild from scratch in memory and report any difference (exit 1)',
    )
    .action(async (o: { rebuild?: boolean; paranoid?: boolean }) => {
      // Embedding runs in a worker thread, so this thread answers Ctrl-C while a batch is running.
      // Bulk: after the first texts the worker runs the fp32 graph derived from the shipped one.
      const mem = (await openWorkspace(g(), { embedWorker: 'bulk' })).memory;
      const bar = await progressBar(!g().json && process.stderr.isTTY === true);
      let barPhase: string | undefined;
      let lastLine = 0;
      // Ctrl-C / SIGTERM while embedding: stop embedding, keep (save) the vectors already made, then
      // end by the same signal (a shell shows 130 for Ctrl-C). Before the embedding (reading the
      // files, the keyword update and its save), nothing listens for the abort: the call ends as
      // every writing command does, between two writes (exitWhenNoLock), and the index on disk stays
      // the one before or, when its save had finished, the new one. A second signal ends at once;
      // vectors are also checkpointed during the run, so even that keeps most of them.
      const stop = new AbortController();
      let embedding = false;
      const onSignal = (sig: NodeJS.Signals) => {
        if (stop.signal.aborted) raise(sig);
        stop.abort(sig);
        if (!embedding) {
          if (!g().json)
            err('gitmem: interrupted before embedding; the index on disk stays whole (run `gitmem index` again)');
          exitWhenNoLock(sig);
        }
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      const res = await mem
        .index({
          signal: stop.signal,
          ...(o.rebuild ? { rebuild: true } : {}),
          ...(o.paranoid ? { paranoid: true } : {}),
          onProgress: (phase, done, total) => {
            if (phase === 'embed') embedding = true;
            if (bar) {
              if (total > 0 && barPhase !== phase) {
                if (barPhase) bar.stop();
                bar.start(total, 0, { phase, unit: phase === 'embed' ? 'chunks' : 'files' });
                barPhase = phase;
              }
              if (total > 0) bar.update(done, { phase });
            } else if (!g().json) {
              // Not a terminal: plain lines, at most one per phase change or per 10 %.
              const step = total > 0 ? Math.floor((done / total) * 10) : -1;
              if (phase !== barPhase || (total > 0 && step !== lastLine)) {
                err(`gitmem: ${phase}${total > 0 ? ` ${done}/${total}` : '…'}`);
                barPhase = phase;
                lastLine = step;
              }
            }
          },
        })
        .finally(() => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
        });
      if (bar && barPhase) bar.stop();
      // The first index of a workspace says what markdown its layout leaves out (R29).
      const left = /^index missing/.test(res.reason ?? '') ? await import('../service/doctor/left-out.js') : undefined;
      const leftOut = await left?.leftOutMarkdown(mem.context.fs, mem.context.loaded.layout);
      if (g().json) printJson(leftOut ? { ...res, leftOut } : res);
      else {
        if (leftOut?.count) err(`gitmem: note: ${left!.leftOutLine(leftOut, mem.context.loaded.layout.name)}`);
        out(
          `${res.source === 'loaded' ? 'Index is up to date' : `Index updated (${(res.reason ?? '').replace(/^index updated \((.*)\)$/, '$1')})`}: ${res.files} files, ${res.chunks} chunks in ${res.ms.toFixed(0)} ms ${savedNote(res.saved, res.vectors)}`,
        );
        out(res.vectors.unavailable ? dim(vectorsLine(res.vectors)) : vectorsLine(res.vectors));
        for (const s of res.skipped) out(dim(`skipped ${s.path}: ${s.reason}`));
        out(dim(`derived state: ${res.location}`));
        if (res.paranoid) for (const d of res.paranoid.differences) out(`paranoid: ${d}`);
        if (res.paranoid)
          out(
            res.paranoid.differences.length
              ? `Paranoid check FAILED: the incremental index differs from a rebuild`
              : `Paranoid check: identical to a rebuild (${res.paranoid.queries} queries)`,
          );
      }
      if (res.paranoid?.differences.length) process.exitCode = 1;
      if (res.vectors.interrupted) {
        if (!g().json)
          err(
            `gitmem: interrupted; ${res.vectors.total - res.vectors.missing} of ${res.vectors.total} chunks are embedded and saved — run \`gitmem index\` to embed the rest`,
          );
        // The batch in flight is abandoned: end now rather than wait for the runtime to finish it.
        raise((stop.signal.reason as NodeJS.Signals | undefined) ?? 'SIGINT');
      }
    });

  program
    .command('doctor')
    .description('report workspace, layout, git, merge rules, index and model state')
    .option('--fix', 'write the .gitattributes merge rules and register the merge driver (git repositories)')
    .action(async (o: { fix?: boolean }) => {
      const opened = await openWorkspace(g());
      const mem = opened.memory;
      const wsFs = createNodeFs(opened.root);
      const { mergeStatus, setupMerges } = await import('./commands/sync.js');
      const fixed = o.fix
        ? await setupMerges(wsFs, mem.loaded.layout, opened.workTree, opened.workTree !== undefined)
        : undefined;
      const merges = await mergeStatus(wsFs, mem.loaded.layout, opened.workTree);
      const r = {
        ...(await mem.doctor()),
        merges: { ...merges, ...(fixed ? { fixed } : {}) },
        host: await hostStatus(g().dir, g().host),
        startup: startupStatus(process.env, process.versions.node),
        linkedFolders: await (await import('../service/git-ops/linked-folders.js')).linkedMemoryFolders(mem, opened),
      };
      if (g().json) printJson(r);
      else {
        out(`${bold('workspace')}  ${r.root}`);
        out(
          `${bold('layout')}     ${r.layout.name} (${r.layout.source})${r.config.file ? '' : dim(' — no gitmem.config.json')}`,
        );
        out(
          `${bold('git')}        ${r.git.repository ? `yes (${r.git.gitdir})` : 'not a git repository (git features need `git init`)'}`,
        );
        for (const l of r.linkedFolders) {
          out(`             ${l.path} is a symbolic link to ${l.target}: ${l.effect}`);
          out(dim(`             fix: ${l.fix}`));
        }
        const driver = merges.driver
          ? merges.driver.stale
            ? `driver registered but stale (${merges.driver.stale})`
            : merges.driver.outdated
              ? `driver registered with absolute paths (${merges.driver.outdated}); re-register it to run gitmem from PATH`
              : merges.driver.registered
                ? 'driver registered'
                : 'driver not registered'
          : 'driver unknown (no git)';
        const mergesOk =
          merges.attributes && merges.driver?.registered && !merges.driver.stale && !merges.driver.outdated;
        out(
          `${bold('merges')}     ${merges.attributes ? '.gitattributes rules ok' : '.gitattributes rules missing'}, ${driver}${mergesOk ? '' : dim(' — gitmem doctor --fix')}`,
        );
        if (fixed?.attributesWritten) out(dim('fixed: wrote the .gitattributes merge rules'));
        if (fixed?.driverRegistered) out(dim(`fixed: registered the merge driver: ${fixed.driverRegistered}`));
        out(
          `${bold('files')}      ${r.files.memory} memory files${r.files.skipped ? `, ${r.files.skipped} skipped` : ''}`,
        );
        for (const group of r.files.sameName)
          out(
            yellow(
              `             ${group.join(' and ')}: one name in two Unicode normal forms (NFC/NFD); merge them into one file`,
            ),
          );
        if (r.files.leftOut.count)
          out(
            `             ${(await import('../service/doctor/left-out.js')).leftOutLine(r.files.leftOut, r.layout.name)}`,
          );
        out(
          `${bold('index')}      ${r.index.state}${r.index.chunks !== null ? `, ${r.index.chunks} chunks` : ''} at ${r.index.location}${r.index.detail ? dim(` — ${r.index.detail}`) : ''}`,
        );
        out(
          `${bold('model')}      ${r.model.state}${r.model.state === 'ready' ? `, ${r.model.vectors} vectors` : ''} ${dim(`— ${r.model.detail}`)}`,
        );
        // Nothing embedded yet: recall still works (keyword half), but say how to embed. (Fewer vectors
        // than chunks is normal: chunks with the same text share one embedding.)
        if (r.model.state === 'ready' && r.model.vectors === 0 && r.index.chunks !== 0)
          out('             no chunk is embedded yet: run `gitmem index` to embed them (a Ctrl-C keeps what is done)');
        out(
          `${bold('load')}       ${r.load.over.length ? `${r.load.over.length} always-loaded file${r.load.over.length === 1 ? '' : 's'} over the host budget` : 'always-loaded files fit the host budget'} ${dim(`(${r.load.maxLines} lines / ${r.load.maxBytes} bytes)`)}`,
        );
        for (const f of r.load.over) {
          out(
            `             ${f.path}: ${f.host ?? 'a host'} drops lines ${f.cutAtLine}–${f.lines} (${f.droppedLines} lines, ${f.droppedBytes} bytes; cut by ${f.by})`,
          );
        }
        out(
          `${bold('host')}       ${r.host.listening ? `${r.host.kind} (pid ${r.host.pid}) listening at ${r.host.endpoint}` : 'none listening'}; recall and get run ${r.host.path === 'host' ? 'in the host' : 'cold (in this process)'}${r.host.reason ? dim(` — ${r.host.reason}`) : ''}${r.host.autostart && !r.host.listening ? dim('; GITMEM_HOST_AUTOSTART is on: the next cold call starts one') : ''}`,
        );
        out(`${bold('node')}       ${r.node}${r.startup.note ? dim(` — ${r.startup.note}`) : ''}`);
      }
    });

  // Every other command's module (and all it imports) is loaded only when argv may name one of them.
  if (!programOptions.readOnly) (await import('./commands/register.js')).registerCommands(program, ctx, g);
  return program;
}

/** Run the full CLI; resolves to the exit code. */
export async function main(argv: readonly string[], options: ProgramOptions = {}): Promise<number> {
  const program = await buildProgram({ readOnly: readCommandOf(argv) !== undefined, ...options });
  // Ctrl-C in a one-shot command ends it between writes, never with a lock file left (U22); the
  // long-running commands stop cleanly on their own.
  program.hook('preAction', (_program, action) => {
    let top = action;
    while (top.parent && top.parent !== program) top = top.parent;
    if (!OWN_SIGNALS.has(top.name())) exitBetweenWrites();
  });
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) e.message = safeUsageMessage(e.message);
    return reportFailure(e, argv);
  }
}
