// Daily notes after a union merge, in time order. `.gitattributes` merges daily notes with git's
// built-in `merge=union` (both sides' lines kept, with no driver to register), which puts our
// appended bullets before theirs whatever their times. The sync merge then puts each note both sides
// changed into time order (R34): `orderDailyBullets` is the rule (pure), `orderMergedDailyNotes` writes
// the ordered notes into the merged tree (new blobs and a new tree through a temporary index, the work
// tree and the repository's index untouched). deps: core/errors, git/system-git, node:fs,
// node:os, node:path.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryError } from '../core/errors.js';
import { runGit } from './system-git.js';

/** A bullet that starts with a time: `- HH:MM …` (`append`'s form), `HH:MM:SS`, `*` or `+` too. */
const TIMED = /^[-*+][ \t]+(\d{1,2}):([0-5]\d)(?::([0-5]\d))?(?=[\s,.;:)]|$)/;
const HEADING = /^#{1,6}(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Seconds since midnight of a timed bullet line, or undefined. */
function timeOf(line: string): number | undefined {
  const m = TIMED.exec(line);
  if (!m) return undefined;
  const h = Number(m[1]);
  if (h > 23) return undefined;
  return h * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
}

/** One timed bullet with the lines that belong to it (its continuation lines, untimed bullets after it). */
interface Group {
  readonly time: number;
  readonly lines: string[];
}

/** Order one section's lines (between headings): leading untimed lines stay first, then timed groups by time. */
function orderSection(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1]!.replace(/\r$/, '').trim() === '') end--; // trailing blank lines stay last
  const lead: string[] = [];
  const groups: Group[] = [];
  let fence: string | undefined;
  for (const line of lines.slice(0, end)) {
    const bare = line.replace(/\r$/, '');
    const time = fence === undefined ? timeOf(bare) : undefined;
    const f = FENCE.exec(bare);
    if (f) fence = fence === undefined ? f[1]![0]!.repeat(3) : bare.trimStart().startsWith(fence) ? undefined : fence;
    if (time !== undefined) groups.push({ time, lines: [line] });
    else if (groups.length) groups[groups.length - 1]!.lines.push(line);
    else lead.push(line);
  }
  // Array.prototype.sort is stable: equal times keep the merged order.
  const sorted = [...groups].sort((x, y) => x.time - y.time);
  return [...lead, ...sorted.flatMap((g) => g.lines), ...lines.slice(end)];
}

/**
 * The daily note `text` with its timed bullets in time order within each section (headings fence the
 * sections; a bullet's continuation lines, and untimed bullets and lines after it, move with it; lines
 * before a section's first timed bullet stay first). Equal times keep their order; line endings,
 * front-matter and fenced code are kept as they are.
 * @returns the reordered text (=== `text` when it was in order).
 */
export function orderDailyBullets(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let i = 0;
  // Front-matter is not a section.
  if (/^(?:\uFEFF)?---\r?$/.test(lines[0] ?? '')) {
    const close = lines.findIndex((l, k) => k > 0 && /^(?:---|\.\.\.)\r?$/.test(l));
    if (close > 0) {
      out.push(...lines.slice(0, close + 1));
      i = close + 1;
    }
  }
  let section: string[] = [];
  let fence: string | undefined;
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const bare = line.replace(/\r$/, '');
    if (fence === undefined && HEADING.test(bare)) {
      out.push(...orderSection(section), line);
      section = [];
      continue;
    }
    const f = FENCE.exec(bare);
    if (f) fence = fence === undefined ? f[1]![0]!.repeat(3) : bare.trimStart().startsWith(fence) ? undefined : fence;
    section.push(line);
  }
  out.push(...orderSection(section));
  return out.join('\n');
}

/** Paths (from the work tree's top) whose blob differs between trees `a` and `b`. */
async function changedPaths(cwd: string, a: string, b: string): Promise<Set<string>> {
  const r = await runGit(cwd, ['diff-tree', '-r', '-z', '--name-only', '--no-renames', a, b]);
  if (r.code !== 0) throw new MemoryError('git.failed', `git diff-tree failed: ${r.stderr.trim()}`);
  return new Set(r.stdout.split('\0').filter(Boolean));
}

/**
 * Put every daily note of the merged tree `tree` that both `ours` and `theirs` changed (its merged
 * text is neither side's) into time order ({@link orderDailyBullets}).
 * @param isDaily whether a path (from the work tree's top) is a daily note of the workspace.
 * @returns the tree to commit (`tree` itself when nothing moved) and the paths reordered.
 * @throws MemoryError `git.failed`, `git.unavailable`.
 */
export async function orderMergedDailyNotes(
  cwd: string,
  ours: string,
  theirs: string,
  tree: string,
  isDaily: (path: string) => boolean,
): Promise<{ tree: string; ordered: string[] }> {
  const fromOurs = await changedPaths(cwd, ours, tree);
  const both = [...(await changedPaths(cwd, theirs, tree))].filter((p) => fromOurs.has(p) && isDaily(p));
  const updates: { path: string; mode: string; blob: string }[] = [];
  for (const path of both) {
    const entry = await runGit(cwd, ['ls-tree', '-z', tree, '--', path]);
    const m = /^(100644|100755) blob ([0-9a-f]+)\t/.exec(entry.stdout);
    if (entry.code !== 0 || !m) continue; // removed in the merge, or not a regular file
    const raw = await runGit(cwd, ['cat-file', 'blob', m[2]!]);
    // A note that is not UTF-8 text would not survive the round trip through a string: left as merged.
    if (raw.code !== 0 || raw.stdout.includes('\uFFFD')) continue;
    const next = orderDailyBullets(raw.stdout);
    if (next === raw.stdout) continue;
    const w = await runGit(cwd, ['hash-object', '-w', '--stdin', '--no-filters'], { input: next });
    if (w.code !== 0) throw new MemoryError('git.failed', `git hash-object failed: ${w.stderr.trim()}`);
    updates.push({ path, mode: m[1]!, blob: w.stdout.trim() });
  }
  if (!updates.length) return { tree, ordered: [] };
  const dir = await mkdtemp(join(tmpdir(), 'gitmem-daily-order-'));
  try {
    const env = { GIT_INDEX_FILE: join(dir, 'index') };
    const steps: string[][] = [
      ['read-tree', tree],
      ['update-index', '--add', ...updates.flatMap((u) => ['--cacheinfo', `${u.mode},${u.blob},${u.path}`])],
    ];
    for (const args of steps) {
      const r = await runGit(cwd, args, { env });
      if (r.code !== 0) throw new MemoryError('git.failed', `git ${args[0]} failed: ${r.stderr.trim()}`);
    }
    const w = await runGit(cwd, ['write-tree'], { env });
    if (w.code !== 0) throw new MemoryError('git.failed', `git write-tree failed: ${w.stderr.trim()}`);
    return { tree: w.stdout.trim(), ordered: updates.map((u) => u.path) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
