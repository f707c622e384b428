// SIGINT / SIGTERM for long-running commands: the first signal starts a clean stop (the caller's
// `stop` promise resolves), and the process exits within `graceMs` whatever the clean stop is doing
// (every derived-state write is atomic, so an exit mid-save loses nothing). A second signal exits at
// once. deps: node only.

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
