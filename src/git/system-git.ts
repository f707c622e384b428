// The system `git` binary, for what isomorphic-git cannot do: fetch/push over local paths and ssh,
// merges that honour .gitattributes (union) and configured merge drivers, and linked worktrees at
// merge time. Run with execFile (argument vector, no shell); a missing binary is a clear
// MemoryError('git.unavailable'). deps: node:child_process, core/errors.
import { execFile } from 'node:child_process';
import { MemoryError } from '../core/errors.js';

/** What one git run gave. `code` is the exit status (0 = success). */
export interface GitRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Longest output kept from one git run, in bytes (a log of a huge history must not balloon). */
const MAX_BUFFER = 64 * 1024 * 1024;

/**
 * Run `git <args>` in `cwd` and resolve with its exit code and output (a non-zero exit is not an
 * error here; callers decide). Prompts are disabled (`GIT_TERMINAL_PROMPT=0`) so a remote asking
 * for credentials fails instead of hanging.
 * @throws MemoryError `git.unavailable` when no `git` executable is on PATH.
 */
export function runGit(
  cwd: string,
  args: readonly string[],
  options: { input?: string; env?: Record<string, string> } = {},
): Promise<GitRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args as string[],
      {
        cwd,
        maxBuffer: MAX_BUFFER,
        encoding: 'utf8',
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env },
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        const e = err as (NodeJS.ErrnoException & { code?: unknown }) | null;
        if (e && e.code === 'ENOENT' && typeof e.errno === 'number') {
          reject(gitUnavailable());
          return;
        }
        if (e && typeof e.code !== 'number' && e.code !== undefined && e.code !== null) {
          reject(new MemoryError('git.failed', `git ${args[0] ?? ''}: ${e.message}`, { cause: e }));
          return;
        }
        resolve({
          code: e ? (typeof e.code === 'number' ? e.code : 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/**
 * What git said went wrong, on one line: its `fatal:` / `error:` lines (at most `most`), else its last
 * `most` lines (R172: the advice git prints after the cause must not stand in for it).
 */
export function gitReason(said: string, most = 2): string {
  const lines = said
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const causes = lines.filter((l) => /^(fatal|error):/i.test(l));
  return (causes.length ? causes : lines.slice(-most)).slice(0, most).join(' | ');
}

/**
 * Run `git <args>` and return its trimmed standard output.
 * @throws MemoryError `git.failed` (stderr in the message) on a non-zero exit; `git.unavailable`.
 */
export async function gitOut(cwd: string, args: readonly string[], options: { input?: string } = {}): Promise<string> {
  const r = await runGit(cwd, args, options);
  if (r.code !== 0) {
    throw new MemoryError('git.failed', `git ${args.join(' ')} failed: ${gitReason(r.stderr || r.stdout, 3)}`, {
      data: { args: [...args], exitCode: r.code },
    });
  }
  return r.stdout.trim();
}

/** The error for a machine without git. */
export function gitUnavailable(): MemoryError {
  return new MemoryError('git.unavailable', 'the git command was not found on PATH (gitmem sync and merges need it)', {
    hint: 'install git (2.38 or later) and make sure `git --version` works in this shell',
  });
}

/** @returns the installed git version as [major, minor], or undefined when git is missing. */
export async function gitVersion(cwd: string): Promise<[number, number] | undefined> {
  try {
    const r = await runGit(cwd, ['--version']);
    const m = /(\d+)\.(\d+)/.exec(r.stdout);
    return m ? [Number(m[1]), Number(m[2])] : undefined;
  } catch {
    return undefined;
  }
}
