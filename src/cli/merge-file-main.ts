// The merge driver's own bundle (dist/cli-merge.cjs): git runs `gitmem merge-file %O %A %B` once for
// each memory file both sides of a merge changed, inside `gitmem sync`'s fetch → merge → push round,
// and each run is a cold node process. The full CLI bundle (~4.7 MB: commander, every command, the
// workspace) made each run ~150-200 ms of CPU to merge one file; this bundle holds the driver
// (git/merge-file.ts and its line and front-matter rules) and the error report, nothing else. The
// process entry (cli/entry.ts) runs it for exactly `merge-file <base> <ours> <theirs>`; any other
// shape (`--dir`, `--help`, a missing path) goes to the full CLI, which prints the same messages.
// deps: core (errors, text), service (init/merge-driver).
import { isMemoryError } from '../core/errors.js';
import { shownControls } from '../core/text.js';
import { mergeFiles } from '../service/init/merge-driver.js';

/**
 * Merge `%O %A %B` as `gitmem merge-file` does: the result written into `ours`; a true conflict
 * leaves markers and a line on stderr.
 * @returns the exit code: 0 merged, 1 conflicts left (or a known error, as cli/exit.ts reports it), 3 internal error.
 */
export async function runMergeFile(base: string, ours: string, theirs: string): Promise<number> {
  try {
    const conflicts = await mergeFiles(base, ours, theirs);
    if (conflicts === 0) return 0;
    process.stderr.write(
      `gitmem merge-file: ${conflicts} conflict${conflicts === 1 ? '' : 's'} left with markers (the same line edited two ways)\n`,
    );
    return 1;
  } catch (e) {
    const known = isMemoryError(e);
    const message = known ? e.message : `internal error: ${(e as Error)?.message ?? String(e)}`;
    process.stderr.write(`gitmem: error: ${shownControls(message)}\n`);
    if (known && e.hint) process.stderr.write(`  hint: ${shownControls(e.hint)}\n`);
    return known ? 1 : 3;
  }
}
