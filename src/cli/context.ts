// What every CLI command module needs from main.ts: open the workspace (with its git location) and
// the global flags. Command modules export `register…Commands(program, ctx)`. deps: service, core.
import type { Memory } from '../service/memory.js';

/** An opened workspace. `gitdir`/`workTree` are undefined outside a git work tree. */
export interface OpenedWorkspace {
  readonly memory: Memory;
  readonly root: string;
  readonly gitdir?: string | undefined;
  readonly workTree?: string | undefined;
}

export interface CliContext {
  /** Open the workspace named by `--dir` (or found from the current folder). */
  open(options?: { freshness?: 'scan' | 'manual' }): Promise<OpenedWorkspace>;
  /** `--json` was given. */
  json(): boolean;
  /** `--debug` was given. */
  debug(): boolean;
  /** `--dir` as given (undefined when absent). */
  dir(): string | undefined;
}

/** Open, run `fn`, and always dispose the Memory (it may hold an embedding session). */
export async function withWorkspace<T>(
  ctx: CliContext,
  fn: (o: OpenedWorkspace) => Promise<T>,
  options?: { freshness?: 'scan' | 'manual' },
): Promise<T> {
  const opened = await ctx.open(options);
  try {
    return await fn(opened);
  } finally {
    await opened.memory.dispose();
  }
}
