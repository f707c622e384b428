// `gitmem verify [--json] [paths…]`: memories checked against the code they cite
// (service/trust/verify.ts); lists the stale ones and exits 1 when there are any, so CI can run it.
// Rendering only. deps: service, core (cli layer).
import type { Command } from 'commander';
import type { CodeStatus } from '../../service/trust/code-check.js';
import { verify } from '../../service/trust/verify.js';
import { withWorkspace, type CliContext } from '../context.js';
import { dim, out, printJson } from '../output.js';

/** One stale state, as a line: `src/x.ts: code changed (3 commits, 12 lines) since abc1234`. */
export function describeCode(s: CodeStatus): string {
  const since = s.since ? ` since ${s.since.slice(0, 7)}` : '';
  switch (s.status) {
    case 'orphaned':
      return `${s.path}: gone${s.movedTo ? ` (moved to ${s.movedTo})` : ''}`;
    case 'name-missing':
      return `${s.path}: no longer defines ${s.name}${since}`;
    case 'code-changed':
      return `${s.path}: code changed (${s.commits} commit${s.commits === 1 ? '' : 's'}, ${s.changedLines} line${s.changedLines === 1 ? '' : 's'})${since}`;
    default:
      return `${s.path}: unchanged`;
  }
}

/** Add `verify` to `program`. */
export function registerVerifyCommands(program: Command, ctx: CliContext): void {
  program
    .command('verify')
    .description(
      'check memories against the code they cite (files:, paths in the text, backticked names); lists stale ones and exits 1 when there are any',
    )
    .argument('[paths...]', 'memory files or folders to check (default: all)')
    .action(async (paths: string[]) => {
      const res = await withWorkspace(ctx, ({ memory }) => verify(memory.context, paths));
      if (ctx.json()) printJson(res);
      else {
        for (const m of res.stale) {
          out(`${m.path}:${m.startLine}-${m.endLine}${m.id ? ` (${m.id})` : ''}`);
          for (const s of m.code) out(`  ${describeCode(s)}`);
        }
        out(
          dim(
            `${res.stale.length} stale of ${res.checked} memor${res.checked === 1 ? 'y' : 'ies'} citing code${res.stale.length ? '; after re-checking one, set verified: <date> in its front-matter (or update it)' : ''}`,
          ),
        );
      }
      if (res.stale.length) process.exitCode = 1;
    });
}
