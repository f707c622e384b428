// CLI commands for git-native memory: `checkpoint`, `log`, `diff`, and the `recall --as-of` helper.
// Rendering only; behaviour lives in service/git-ops/. deps: service, core (cli layer).
import type { Command } from 'commander';
import { MemoryError, shownValue } from '../../core/errors.js';
import { checkpointMemory, type CheckpointResult } from '../../service/git-ops/checkpoint.js';
import { diffMemory, type MemoryDiffReport } from '../../service/git-ops/diff.js';
import { memoryHistory, type LogEntry } from '../../service/git-ops/history.js';
import { requireRevision } from '../../service/git-ops/as-of.js';
import type { Memory } from '../../service/memory.js';
import { bold, cyan, dim, out, printJson, red, yellow, err } from '../output.js';

/** What the git commands need from main.ts. */
export interface GitCommandContext {
  /** Open the workspace; `gitdir`/`workTree` come from platform/discover.ts (undefined outside git). */
  open(): Promise<{ memory: Memory; gitdir?: string | undefined; workTree?: string | undefined }>;
  /** True when `--json` was given. */
  json(): boolean;
}

const short = (oid: string) => oid.slice(0, 7);

/** Open, run, and always dispose the Memory (it may hold an embedding session). */
async function withOpened<T>(
  ctx: GitCommandContext,
  fn: (o: Awaited<ReturnType<GitCommandContext['open']>>) => Promise<T>,
): Promise<T> {
  const opened = await ctx.open();
  try {
    return await fn(opened);
  } finally {
    await opened.memory.dispose();
  }
}

/** Add `checkpoint`, `log` and `diff` to `program`. */
export function registerGitCommands(program: Command, ctx: GitCommandContext): void {
  program
    .command('checkpoint')
    .description('commit the memory changes (only memory files; your other staged and unstaged work is left alone)')
    .option('-m, --message <msg>', 'commit message (first line is the summary; default: a summary of the changes)')
    .option('--reason <text>', 'why the memory changed (Memory-Reason trailer)')
    .option('--force', 'commit even when possible secrets or merge conflict markers are found')
    .action(async (o: { message?: string; reason?: string; force?: boolean }) => {
      const { res, cap } = await withOpened(ctx, async ({ memory, gitdir, workTree }) => ({
        res: await checkpointMemory(
          memory,
          { gitdir, workTree },
          {
            ...(o.message !== undefined ? { message: o.message } : {}),
            ...(o.reason !== undefined ? { reason: o.reason } : {}),
            ...(o.force ? { force: true } : {}),
          },
        ),
        cap: memory.config.limits.maxFileBytes,
      }));
      reportCommitted(res, cap, ctx.json(), renderCheckpoint);
    });

  program
    .command('log')
    .description('history of the memory files, or of one file, folder or entry id')
    .argument('[path]', 'memory file, folder or entry id')
    .option('--limit <n>', 'most commits shown (default 50)', (v: string) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1)
        throw new MemoryError('usage', `--limit must be a positive integer, got ${shownValue(v)}`);
      return n;
    })
    .option('--rev <rev>', 'start from this revision instead of HEAD')
    .action(async (path: string | undefined, o: { limit?: number; rev?: string }) => {
      const entries = await withOpened(ctx, ({ memory, gitdir, workTree }) =>
        memoryHistory(
          memory,
          { gitdir, workTree },
          {
            ...(path ? { path } : {}),
            ...(o.limit !== undefined ? { limit: o.limit } : {}),
            ...(o.rev !== undefined ? { rev: o.rev } : {}),
          },
        ),
      );
      if (ctx.json()) printJson({ path: path ?? null, commits: entries });
      else renderLog(entries, path);
    });

  program
    .command('diff')
    .description('memory diff between two revisions, or a revision and the work tree, in memory terms')
    .argument('<rev>', 'older revision (commit, branch, tag, HEAD~N)')
    .argument('[rev2]', 'newer revision (default: the work tree)')
    .action(async (rev: string, rev2: string | undefined) => {
      const report = await withOpened(ctx, ({ memory, gitdir, workTree }) =>
        diffMemory(
          memory,
          { gitdir, workTree },
          requireRevision(rev),
          rev2 === undefined ? undefined : requireRevision(rev2),
        ),
      );
      if (ctx.json()) printJson(report);
      else renderDiff(report);
    });
}

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

function renderCheckpoint(res: CheckpointResult): void {
  if (res.kind === 'nothing-to-commit') {
    out(`Nothing to commit: memory matches ${res.head ? `HEAD (${short(res.head)})` : 'HEAD (no commits yet)'}.`);
    return;
  }
  const c = res.changes;
  const where = res.branch ?? 'detached HEAD';
  out(`${bold(`Checkpoint ${short(res.oid)}`)} on ${where}: ${res.summary}`);
  for (const p of c.added) out(`  ${cyan('added')}     ${p}`);
  for (const p of c.modified) out(`  ${yellow('modified')}  ${p}`);
  for (const p of c.deleted) out(`  ${red('deleted')}   ${p}`);
  if (res.author.source === 'fallback') {
    err(
      `gitmem: note: no git identity configured; committed as ${res.author.name} <${res.author.email}> (set git config user.name/user.email)`,
    );
  }
  for (const s of res.secrets)
    err(`gitmem: warning: committed a possible secret (--force): ${s.path}:${s.line}:${s.column} ${s.rule}`);
}

function renderLog(entries: readonly LogEntry[], path?: string): void {
  if (entries.length === 0) {
    // With a path, the history may be long: say that none of it touches this path (U36).
    out(
      path ? `No memory commit touches ${path} (a workspace-relative path or an entry id).` : 'No memory commits yet.',
    );
    return;
  }
  for (const e of entries) {
    out(`${yellow(short(e.oid))} ${dim(e.author.date.slice(0, 10))} ${e.summary} ${dim(`— ${e.author.name}`)}`);
    for (const f of e.files) {
      const m = e.memory.find((x) => x.path === f.path);
      const tag = m?.id ? ` ${dim(`[${m.kind ?? 'entry'} ${m.id}]`)}` : '';
      out(`    ${f.change === 'added' ? '+' : f.change === 'deleted' ? '-' : '~'} ${f.path}${tag}`);
    }
    if (e.reason) out(dim(`    reason: ${e.reason}`));
  }
}

const show = (v: unknown) => (v === undefined ? '∅' : typeof v === 'string' ? v : JSON.stringify(v));

function renderDiff(r: MemoryDiffReport): void {
  const to = r.to ? `${r.to.rev} (${short(r.to.oid)})` : 'work tree';
  out(bold(`Memory diff ${r.from.rev} (${short(r.from.oid)}) → ${to}`));
  if (r.changes.length === 0) {
    out('No memory changes.');
    return;
  }
  for (const c of r.changes) {
    const label = c.id ? `${c.kind} ${c.id}` : c.kind;
    const mark = c.change === 'added' ? cyan('added') : c.change === 'removed' ? red('removed') : yellow('changed');
    out(`${mark} ${label} ${dim(c.path)}${c.renamedFrom ? dim(` (moved from ${c.renamedFrom})`) : ''}`);
    for (const f of c.fields) out(`    ${f.key}: ${show(f.before)} → ${show(f.after)}`);
    for (const s of c.sections) out(`    ## ${s.name}: ${show(s.before?.trim())} → ${show(s.after?.trim())}`);
    if (c.change === 'changed' && c.bodyChanged && c.kind !== 'daily' && c.sections.length === 0) {
      out(dim(`    body changed (+${c.linesAdded.length}${c.truncated ? '+' : ''} / -${c.linesRemoved} lines)`));
    }
    if (c.kind === 'daily' || c.kind === 'long_term' || c.kind === 'note') {
      for (const l of c.linesAdded) out(`    + ${l.text}`);
      if (c.truncated) out(dim('    …'));
    }
  }
  out(dim(`${r.summary.added} added, ${r.summary.changed} changed, ${r.summary.removed} removed`));
}
