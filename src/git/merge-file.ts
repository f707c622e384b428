// The gitmem merge driver (`gitmem merge-file %O %A %B`): a three-way merge of one memory file that
// keeps both sides' new bullets once, merges entry front-matter key by key, lets last-updated stamps
// take the latest time (and the `created:` of one entry added in both clones the earliest), and
// leaves true conflicts (the same bullet edited two ways) as conflict markers. Line alignment is
// git's own (`git merge-file --diff3`, run with execFile); the settling rules are in merge-lines.ts
// and merge-front-matter.ts. A version that is not valid UTF-8 is merged byte for byte (R57).
// deps: node:fs, node:os, core, git/system-git.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryError, shownValue } from '../core/errors.js';
import { invalidUtf8Offset } from '../core/text.js';
import { mergeFrontMatter } from './merge-front-matter.js';
import {
  alignCreated,
  alignStamps,
  DIFF3_MARKER_SIZE,
  resolveDiff3,
  type LineMergeResult,
  type MergeLabels,
} from './merge-lines.js';
import { runGit } from './system-git.js';

/** A file split at its front-matter fences. */
interface Split {
  readonly bom: string;
  readonly open: string;
  readonly fm: string[];
  readonly close: string;
  readonly body: string;
}

function split(text: string): Split | undefined {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const lines = text.slice(bom.length).split('\n');
  if (!/^---\r?$/.test(lines[0] ?? '')) return undefined;
  for (let k = 1; k < lines.length; k++) {
    if (/^(?:---|\.\.\.)\r?$/.test(lines[k]!)) {
      return { bom, open: lines[0]!, fm: lines.slice(1, k), close: lines[k]!, body: lines.slice(k + 1).join('\n') };
    }
  }
  return undefined;
}

/** Three-way line merge of texts through `git merge-file --diff3`, conflict hunks settled by the bullet rules. */
async function mergeLines(base: string, ours: string, theirs: string, labels: MergeLabels): Promise<LineMergeResult> {
  if (ours === theirs || base === theirs) return { text: ours, conflicts: 0 };
  if (base === ours) return { text: theirs, conflicts: 0 };
  const dir = mkdtempSync(join(tmpdir(), 'gitmem-merge-'));
  try {
    const [o, a, b] = [join(dir, 'base'), join(dir, 'ours'), join(dir, 'theirs')];
    writeFileSync(o, base);
    writeFileSync(a, ours);
    writeFileSync(b, theirs);
    const r = await runGit(dir, [
      'merge-file',
      '-p',
      '--diff3',
      `--marker-size=${DIFF3_MARKER_SIZE}`,
      '-L',
      'ours',
      '-L',
      'base',
      '-L',
      'theirs',
      a,
      o,
      b,
    ]);
    if (r.code < 0 || r.code > 127) throw new MemoryError('git.failed', `git merge-file failed: ${r.stderr.trim()}`);
    return resolveDiff3(r.stdout, labels);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The two texts of a file both sides added, as one conflict. */
function bothAdded(ours: string, theirs: string, labels: MergeLabels): LineMergeResult {
  const lead = /^\r?\n/.exec(ours)?.[0] ?? '';
  const text = (t: string) => t.replace(/^(?:\r?\n)+/, '').replace(/(?:\r?\n)+$/, '');
  return {
    text: `${lead}<<<<<<< ${labels.ours}\n${text(ours)}\n=======\n${text(theirs)}\n>>>>>>> ${labels.theirs}\n`,
    conflicts: 1,
  };
}

/**
 * Merge three versions of a memory file (markdown, optionally with front-matter).
 * @returns the merged text and the number of true conflicts left as markers (0 = clean).
 * @throws MemoryError `git.unavailable` when git is missing.
 */
async function mergeMemoryText(
  base: string,
  ours: string,
  theirs: string,
  labels: MergeLabels = { ours: 'ours', theirs: 'theirs' },
): Promise<LineMergeResult> {
  const [b, o, t] = alignCreated(alignStamps([base, ours, theirs]));
  const so = split(o);
  const st = split(t);
  const sb = b === '' ? ({ bom: '', open: '---', fm: [], close: '---', body: '' } as Split) : split(b);
  if (so && st && sb) {
    const fm = mergeFrontMatter(sb.fm, so.fm, st.fm, labels);
    if (fm) {
      // Added on both sides with different text: two memories that got one id (the same title on
      // the same day in two clones). Keeping both texts would make them one entry: a conflict (G14).
      const body =
        b === '' && so.body.trim() !== st.body.trim()
          ? bothAdded(so.body, st.body, labels)
          : await mergeLines(sb.body, so.body, st.body, labels);
      return {
        text: [`${so.bom}${so.open}`, ...fm.lines, so.close, body.text].join('\n'),
        conflicts: fm.conflicts + body.conflicts,
      };
    }
  }
  return mergeLines(b, o, t, labels);
}

/**
 * The merge-driver entry: read `%O %A %B`, write the merge into `%A` (git's contract).
 * @returns the number of conflicts (the CLI exits 1 when it is not 0).
 */
export async function mergeFiles(
  basePath: string,
  oursPath: string,
  theirsPath: string,
  labels?: MergeLabels,
): Promise<number> {
  const read = (p: string) => {
    try {
      return readFileSync(p);
    } catch (e) {
      // The path as shownValue shows a value, and the errno code, not Node's message, which repeats the path raw (T18).
      throw new MemoryError(
        'fs.read-failed',
        `cannot read ${shownValue(p)}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
      );
    }
  };
  const bytes = [read(basePath), read(oursPath), read(theirsPath)];
  // A version that is not valid UTF-8 would be decoded with U+FFFD in place of its bytes and written
  // back so (R57). Then all three are read as Latin-1, one character per byte, which the merge keeps
  // as it keeps any text (it compares lines and matches ASCII shapes only), and written back as the
  // same bytes; the labels are given as the characters of their UTF-8 bytes, so they come back whole.
  const encoding: BufferEncoding = bytes.some((b) => invalidUtf8Offset(b) !== undefined) ? 'latin1' : 'utf8';
  const [b, o, t] = bytes.map((x) => x.toString(encoding)) as [string, string, string];
  const asRead = (l: string) => Buffer.from(l, 'utf8').toString(encoding);
  const res = await mergeMemoryText(b, o, t, labels && { ours: asRead(labels.ours), theirs: asRead(labels.theirs) });
  writeFileSync(oursPath, Buffer.from(res.text, encoding));
  return res.conflicts;
}
