// What checkpoint and sync print once they ran: the warnings of what they left uncommitted or
// unindexed, then the result. deps: cli (output).
import { err, printJson } from './output.js';

/** A commit id as shown: its first seven hex digits. */
export const short = (oid: string) => oid.slice(0, 7);

/**
 * What checkpoint and sync say once they ran: the warnings of what they left uncommitted
 * ({@link warnNotCommitted}) or unindexed for its size ({@link warnNotIndexed}, `cap` bytes), then
 * the result, as JSON when `json`, else rendered.
 */
export function reportCommitted<
  R extends Parameters<typeof warnNotCommitted>[0] & { readonly oversized: readonly { path: string; bytes: number }[] },
>(res: R, cap: number, json: boolean, render: (res: R) => void): void {
  warnNotCommitted(res);
  warnNotIndexed(res.oversized, cap);
  if (json) printJson(res);
  else render(res);
}

/**
 * Warn on stderr about the memory files a checkpoint or sync left uncommitted: those `.gitignore`
 * excludes (recall reads them, no checkpoint or sync ever commits them: they are not force-added, so
 * "memory matches HEAD" would mislead) and those holding NUL bytes (git would show them only as
 * "Binary files differ", so they are held back; docs/bad-inputs.md U16). Nothing when both are empty.
 */
function warnNotCommitted(res: { readonly ignored: readonly string[]; readonly binary: readonly string[] }): void {
  warnIgnored(res.ignored);
  warnBinary(res.binary);
}

/** The first five paths, then how many more. */
const listed = (paths: readonly string[]) =>
  paths.slice(0, 5).join(', ') + (paths.length > 5 ? `, … (${paths.length - 5} more)` : '');

function warnIgnored(paths: readonly string[]): void {
  if (paths.length === 0) return;
  const n = paths.length;
  const list = listed(paths);
  err(
    `gitmem: warning: ${n} memory file${n === 1 ? ' is' : 's are'} ignored by git and never committed, though recall reads ${n === 1 ? 'it' : 'them'}: ${list}\n` +
      `  hint: remove the .gitignore rule to share ${n === 1 ? 'it' : 'them'}, or add ${n === 1 ? 'it' : 'them'} to "ignore" in gitmem.config.json to keep ${n === 1 ? 'it' : 'them'} out of recall`,
  );
}

/** Committed files the index leaves out for their size (checkpoint, sync): recall and validate skip them (U68). */
function warnNotIndexed(files: readonly { path: string; bytes: number }[], cap: number): void {
  if (files.length === 0) return;
  const n = files.length;
  const num = (k: number) => k.toLocaleString('en-US');
  const list = listed(files.map((f) => `${f.path} (${num(f.bytes)} bytes)`));
  err(
    `gitmem: warning: ${n} committed memory file${n === 1 ? ' is' : 's are'} over limits.maxFileBytes (${num(cap)} bytes), so recall and validate skip ${n === 1 ? 'it' : 'them'}: ${list}\n` +
      `  hint: split ${n === 1 ? 'it' : 'them'}, or raise "limits": {"maxFileBytes": …} in gitmem.config.json to index ${n === 1 ? 'it' : 'them'}`,
  );
}

function warnBinary(paths: readonly string[]): void {
  if (paths.length === 0) return;
  const n = paths.length;
  const list = listed(paths);
  err(
    `gitmem: warning: ${n} memory file${n === 1 ? ' holds' : 's hold'} NUL bytes, so git would show ${n === 1 ? 'its' : 'their'} change only as "Binary files differ"; not committed: ${list}\n` +
      `  hint: remove the NUL bytes (gitmem validate shows memory.file.binary) or move ${n === 1 ? 'the file' : 'them'} out of the memory folder`,
  );
}
