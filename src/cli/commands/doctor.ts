// `gitmem doctor`: report workspace, layout, git, merge rules, index, model, load budget, host and node
// state; --fix writes the merge rules. deps: service (doctor, git-ops on demand), platform, cli.
import type { Command } from 'commander';
import { createNodeFs } from '../../platform/node-fs.js';
import { hostStatus } from '../host.js';
import { type GlobalOptions, openWorkspace } from '../open-workspace.js';
import { bold, dim, out, printJson, yellow } from '../output.js';
import { startupStatus } from '../startup-cost.js';

/** Add `doctor` (with its action) to `program`; `g` gives the program's global options. */
export function doctorCommand(program: Command, g: () => GlobalOptions): Command {
  return program
    .command('doctor')
    .description('report workspace, layout, git, merge rules, index and model state')
    .option('--fix', 'write the .gitattributes merge rules and register the merge driver (git repositories)')
    .action(async (o: { fix?: boolean }) => {
      const opened = await openWorkspace(g());
      const mem = opened.memory;
      const wsFs = createNodeFs(opened.root);
      const { mergeStatus, setupMerges } = await import('./sync.js');
      const fixed = o.fix
        ? await setupMerges(wsFs, mem.loaded.layout, opened.workTree, opened.workTree !== undefined)
        : undefined;
      const merges = await mergeStatus(wsFs, mem.loaded.layout, opened.workTree);
      const r = {
        ...(await (await import('../../service/doctor/doctor.js')).doctor(mem.context)),
        merges: { ...merges, ...(fixed ? { fixed } : {}) },
        host: await hostStatus(g().dir, g().host),
        startup: startupStatus(process.env, process.versions.node),
        linkedFolders: await (await import('../../service/git-ops/linked-folders.js')).linkedMemoryFolders(mem, opened),
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
            `             ${(await import('../../service/doctor/left-out.js')).leftOutLine(r.files.leftOut, r.layout.name)}`,
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
}
