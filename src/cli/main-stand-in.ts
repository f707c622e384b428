// The read bundle's cli/main.ts (dist/cli-read.cjs; scripts/build.mjs puts this module in its
// place). The process entry runs that bundle for `recall`, `get`, `hook prompt` and `context`: the
// thin entry (cli/bin.ts) answers them with the workspace modules alone, so the bundle leaves out
// the full CLI (every other command, help and parse errors, the MCP server, the language server)
// and is read and compiled in about 60 % of the full bundle's time. When such a call still needs
// the full CLI (`recall --help`, a parse error), this runs the full CLI bundle instead, which parses
// argv again and answers as it would have. deps: none (the entry's hand-over on globalThis).

/** Set by the process entry (cli/entry.ts): runs the full CLI bundle (dist/cli-bundle.cjs) for this argv. */
export const FULL_CLI = Symbol.for('gitmem.full-cli');

/**
 * Hand this call to the full CLI bundle, which sets the exit code itself.
 * @returns undefined (the full CLI's own top level reports the outcome).
 * @throws Error when no process entry set up the hand-over (the read bundle run on its own).
 */
export async function main(_argv: readonly string[]): Promise<number | undefined> {
  const run = (globalThis as Record<symbol, unknown>)[FULL_CLI];
  if (typeof run !== 'function') throw new Error('the full CLI bundle is not available to this process');
  (run as () => void)();
  return undefined;
}
