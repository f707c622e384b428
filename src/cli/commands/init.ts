// `gitmem init`: scaffold MEMORY.md, DREAMS.md, CURRENT_STATE.md and the layout's folders (never
// overwrites) and the merge rules for memory files. deps: service (init, on demand), platform, core, cli.
import { Option, type Command } from 'commander';
import { LAYOUT_NAMES, layoutPreset, type LayoutName } from '../../core/layout.js';
import { systemClock } from '../../core/ports.js';
import { discoverWorkspace } from '../../platform/discover.js';
import { createNodeFs } from '../../platform/node-fs.js';
import type { GlobalOptions } from '../open-workspace.js';
import { dim, out, printJson } from '../output.js';

/** Add `init` (with its action) to `program`; `g` gives the program's global options. */
export function initCommand(program: Command, g: () => GlobalOptions): Command {
  return program
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
        import('../../service/init/scaffold.js'),
        import('./sync.js'),
      ]);
      const choice = await chooseInitLayout(fs, o.layout);
      const res = await initWorkspace(fs, {
        layout: choice.layout,
        clock: systemClock,
        inGit: found.gitdir !== undefined,
      });
      // Merge rules: union for append-only files, the gitmem driver (registered on request) for the rest.
      const merges = await setupMerges(fs, layoutPreset(res.layout), found.workTree, o.mergeDriver === true);
      if (g().json)
        printJson({ root: found.root, ...res, layoutReason: choice.reason, layoutSource: choice.source, merges });
      else {
        for (const p of res.created) out(`created  ${p}`);
        for (const p of res.existing) out(dim(`exists   ${p}`));
        if (merges.attributesWritten) out('wrote    .gitattributes (merge rules for memory files)');
        if (merges.driverRegistered) out(`merge driver registered in git config: ${merges.driverRegistered}`);
        out(`Workspace ready (${res.layout} layout) in ${found.root}`);
        out(`Layout: ${res.layout}, ${choice.reason}.`);
        if (choice.source === 'detected') out(dim(otherLayoutsHint(res.layout)));
      }
    });
}

/** The line that tells how to pick another layout (docs/DESIGN.md §1). */
function otherLayoutsHint(chosen: LayoutName): string {
  const others = LAYOUT_NAMES.filter((n) => n !== chosen).join('|');
  return (
    `Another layout: \`gitmem init --layout ${others}\` chooses it up front; here, set "layout" in ` +
    'gitmem.config.json and run `gitmem init` again (plain: every markdown file in the repository is memory).'
  );
}
