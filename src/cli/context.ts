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

/** What the git commands (checkpoint, log, diff) need: the workspace with its git location, and `--json`. */
export interface GitCommandContext {
  /** Open the workspace; `gitdir`/`workTree` come from platform/discover.ts (undefined outside git). */
  open(): Promise<{ memory: Memory; gitdir?: string | undefined; workTree?: string | undefined }>;
  /** True when `--json` was given. */
  json(): boolean;
  /** `--dir` as given (undefined when absent). */
  dir?(): string | undefined;
}

/** Open, run `fn`, and always dispose the Memory (it may hold an embedding session). */
export async function withWorkspace<T, O extends { readonly memory: Memory } = OpenedWorkspace>(
  ctx: { open(options?: { freshness?: 'scan' | 'manual' }): Promise<O> },
  fn: (o: O) => Promise<T>,
  options?: { freshness?: 'scan' | 'manual' },
): Promise<T> {
  const opened = await ctx.open(options);
  try {
    return await fn(opened);
  } finally {
    await opened.memory.dispose();
  }
}
