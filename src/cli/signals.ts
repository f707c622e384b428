// SIGINT / SIGTERM for long-running commands: the first signal starts a clean stop (the caller's
// `stop` promise resolves), and the process exits within `graceMs` whatever the clean stop is doing
// (every derived-state write is atomic, so an exit mid-save loses nothing). A second signal exits at
// once. deps: node, platform/lockfile.ts.
import { heldLockCount } from '../platform/lockfile.js';

/** Exit status for a signal, as shells report it (128 + signal number). */
const STATUS: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/**
 * @returns a promise of the first signal's name. After it, the process exits at most `graceMs`
 *   later (default 900 ms), with 128 + the signal number unless the clean stop finished first.
 */
export function stopSignal(graceMs = 900): Promise<string> {
  return new Promise<string>((resolve) => {
    let got: string | undefined;
    const on = (sig: string) => () => {
      if (got) process.exit(STATUS[sig] ?? 1);
      got = sig;
      setTimeout(() => process.exit(STATUS[sig] ?? 1), graceMs).unref();
      resolve(sig);
    };
    process.on('SIGINT', on('SIGINT'));
    process.on('SIGTERM', on('SIGTERM'));
  });
}

/**
 * For one-shot commands that write (sync, checkpoint, remember, complete-task, …): Ctrl-C or SIGTERM
 * no longer kills the process where it stands, which left `<gitdir>/index.lock` and gitmem's own lock
 * files behind (so the user's next `git commit` failed) or could cut a git index write short. The
 * first signal waits until this process holds no lock file (the write in progress finishes; at most
 * `graceMs`, default 5 s), then exits with 128 + the signal number; a second signal exits at once.
 * Any lock still held at exit is removed by the lock module's exit hook (docs/bad-inputs.md U22).
 */
let betweenWrites = false;
/** Writes in progress that must not stop half-way ({@link asOneWrite}). */
let units = 0;
export function exitBetweenWrites(graceMs = 5_000): void {
  if (betweenWrites) return;
  betweenWrites = true;
  let got: string | undefined;
  const on = (sig: string) => () => {
    const status = STATUS[sig] ?? 1;
    if (got) process.exit(status);
    got = sig;
    if (units > 0)
      process.stderr.write('gitmem: finishing the move in progress before stopping (Ctrl-C again stops at once)\n');
    exitWhenNoLock(sig, graceMs);
  };
  process.on('SIGINT', on('SIGINT'));
  process.on('SIGTERM', on('SIGTERM'));
}

/**
 * Exit with 128 + the number of `sig` (130 for SIGINT, 143 for SIGTERM) as soon as this process
 * holds no lock file and no {@link asOneWrite} is in progress: at once between two writes, else when
 * the write in progress releases its lock (at most `graceMs` milliseconds later, default 5 s; a lock
 * still held then is removed by the lock module's exit hook). Every derived-state and memory write
 * is atomic, so what was not written yet is simply not there.
 */
export function exitWhenNoLock(sig: string, graceMs = 5_000): void {
  const status = STATUS[sig] ?? 1;
  const deadline = Date.now() + graceMs;
  const poll = () => {
    if (units === 0 && (heldLockCount() === 0 || Date.now() >= deadline)) process.exit(status);
    setTimeout(poll, 10);
  };
  poll();
}

/**
 * Run `fn`, a write made of many steps that is only sound whole (`gitmem mv`: every file renamed and
 * every link rewritten). A first Ctrl-C or SIGTERM meanwhile waits for it to finish, with no time
 * limit (it is a bounded set of renames and writes), then exits; a second signal exits at once.
 * Before, the exit came between two renames and left a folder half moved with its links broken
 * (docs/bad-inputs.md B53).
 */
export async function asOneWrite<T>(fn: () => Promise<T>): Promise<T> {
  units++;
  try {
    return await fn();
  } finally {
    units--;
  }
}
