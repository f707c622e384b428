// GITMEM_HOST_AUTOSTART: a one-shot call that found no host starts one for the next calls, as git's
// `core.fsmonitor` starts its file-system monitor daemon from `git status`. The host is a detached
// `gitmem watch --idle-exit <s>` on the same workspace: it answers the following calls over the host
// socket (cli/host.ts) and stops by itself once no call has come for the idle time (default 30
// minutes, GITMEM_HOST_IDLE_EXIT in seconds), or at once when another host already serves the
// workspace. Opt-in per process environment (an agent's hook sets it), never from the workspace's
// committed config: a cloned repository does not start processes on its reader's machine.
// Nothing is written but one stamp file in the derived-state folder, which stops a burst of cold
// calls from starting a host each (a start counts for 15 s). deps: node:*, cli/env-flag.
import { spawn } from 'node:child_process';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envFlag } from './env-flag.js';

/** Idle time an auto-started host waits for a call before it stops (s). */
export const DEFAULT_IDLE_EXIT_S = 1800;
/** Longest idle time a host may be given (a week, in seconds): GITMEM_HOST_IDLE_EXIT and `watch --idle-exit`. */
export const MAX_IDLE_EXIT_S = 604_800;
/** A start younger than this (ms) is not repeated. */
const STARTING_MS = 15_000;
/** The stamp file in the derived-state folder. */
export const AUTOSTART_STAMP = 'host-autostart.stamp';

/** Whether GITMEM_HOST_AUTOSTART asks cold calls to start a host (for `doctor`). */
export const autostartOn = (): boolean => envFlag('GITMEM_HOST_AUTOSTART');

/** GITMEM_HOST_IDLE_EXIT as whole seconds (1 … a week), else the default. */
function idleSeconds(): number {
  const n = Number(process.env.GITMEM_HOST_IDLE_EXIT);
  return Number.isInteger(n) && n >= 1 && n <= MAX_IDLE_EXIT_S ? n : DEFAULT_IDLE_EXIT_S;
}

/**
 * Start a host for `root` when GITMEM_HOST_AUTOSTART asks for it and none was started in the last
 * 15 s. Never throws: a host that cannot start only leaves the calls cold.
 * @param root the workspace root; @param stateDir its derived-state folder (must exist: a workspace
 *   gitmem has never indexed gets no host); @param cli the CLI entry script (dist/cli.cjs).
 * @returns the started process id, or why none was started.
 */
export function autostartHost(
  root: string,
  stateDir: string,
  cli: string | undefined = process.argv[1],
): { pid: number } | { skipped: string } {
  if (!autostartOn()) return { skipped: 'GITMEM_HOST_AUTOSTART is not set' };
  try {
    if (!cli || !existsSync(cli)) return { skipped: 'no CLI entry script to start' };
    if (!existsSync(stateDir)) return { skipped: 'no derived-state folder yet' };
    const stamp = join(stateDir, AUTOSTART_STAMP);
    const at = statSync(stamp, { throwIfNoEntry: false });
    if (at && Date.now() - at.mtimeMs < STARTING_MS) return { skipped: 'a host was started a moment ago' };
    writeFileSync(stamp, `${process.pid}\n`, { mode: 0o600 });
    const env = { ...process.env };
    delete env.GITMEM_HOST_AUTOSTART;
    const child = spawn(process.execPath, [cli, '--dir', root, 'watch', '--idle-exit', String(idleSeconds())], {
      detached: true,
      stdio: 'ignore',
      env,
      cwd: root,
      windowsHide: true,
    });
    child.on('error', () => undefined);
    child.unref();
    return child.pid === undefined ? { skipped: 'the host process did not start' } : { pid: child.pid };
  } catch (e) {
    return { skipped: (e as Error).message };
  }
}
