// Daily-note appends (docs/DESIGN.md §2 `YYYY-MM-DD.md`, append-mostly log): one `- HH:MM text` bullet added
// to the end of the day's note as an atomic read-modify-write under a cross-process per-file lock,
// with optional optimistic concurrency (expected content hash → `fs.conflict`). Existing bytes are
// never rewritten (BOM and line-ending style kept). deps: core, continuity (local date/time).
import { checkDate, checkExpectedHash } from '../shared/inputs.js';
import { writeExtended } from '../shared/memory-files.js';
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { memoryKindForWrite } from '../../core/layout.js';
import { toRelPath, type RelPath } from '../../core/paths.js';
import { decodeText, writtenText } from '../../core/text.js';
import { checkWriteSize } from '../../core/write-limits.js';
import { localDateTime } from '../../continuity/sections.js';
import type { MemoryContext } from '../shared/memory-context.js';

export interface AppendDailyOptions {
  /** Day of the note, `YYYY-MM-DD` (default: today in the host's time zone). */
  readonly date?: string;
  /** Optimistic concurrency: the note's content hash when last read; null = "must not exist yet". */
  readonly expectedHash?: string | null;
  /** How long to wait for another writer's lock (ms). Default 10 000. */
  readonly lockWaitMs?: number;
  /**
   * An observed turn (MCP memory_observe): the bullet reads `role: text` with a `(source: … · session: …)`
   * line under it. The size cap applies to `text` alone, the part the caller wrote (U66).
   */
  readonly observation?: { readonly role: string; readonly source: string; readonly session?: string };
}

/** `appendDaily`'s input: the text of the bullet and where and how to append it. */
export interface AppendDailyInput extends AppendDailyOptions {
  readonly text: string;
}

export interface AppendDailyResult {
  readonly path: string;
  readonly date: string;
  /** 1-based line of the appended bullet. */
  readonly line: number;
  /** Content hash of the note after the append (pass as `expectedHash` next time). */
  readonly hash: string;
  /** True when the note did not exist before. */
  readonly created: boolean;
}

/** In-process queue per file: appends from one process never interleave (the lock file covers others). */
const queues = new Map<string, Promise<unknown>>();

function serialised<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = queues.get(key) ?? Promise.resolve();
  const run = prev.then(fn, fn);
  const tail = run.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return run;
}

/** @returns `existing` unchanged plus `line` (a new `# date` note when missing or blank). */
export function appendLine(existing: string | undefined, date: string, line: string): string {
  if (existing === undefined || existing.replace(/^\uFEFF/, '').trim() === '') {
    const bom = existing?.startsWith('\uFEFF') ? '\uFEFF' : '';
    return `${bom}# ${date}\n\n${line}\n`;
  }
  const crlf = (existing.match(/\r\n/g) ?? []).length;
  const eol = crlf > (existing.match(/\n/g) ?? []).length - crlf ? '\r\n' : '\n';
  const sep = /(?:\r\n|\n|\r)$/.test(existing) ? '' : eol;
  return `${existing}${sep}${line.replace(/\n/g, eol)}${eol}`;
}

/** One bullet: `- HH:MM text`; continuation lines of multi-line text are indented under it. */
function dailyBullet(time: string, text: string): string {
  const lines = writtenText(text).trim().split('\n');
  return [`- ${time} ${lines[0]}`, ...lines.slice(1).map((l) => (l.trim() ? `  ${l}` : ''))].join('\n');
}

/**
 * The daily-note text of an observation: `role: text`, then a source reference line (`source: hook ·
 * session: abc`) so a captured turn can be traced back to where it came from.
 */
function observationText(text: string, o: NonNullable<AppendDailyOptions['observation']>): string {
  return `${o.role}: ${text.trim()}\n(source: ${o.source}${o.session ? ` · session: ${o.session}` : ''})`;
}

/**
 * Append `input.text` to the daily note of `input.date` (default today), over the context's file system,
 * layout and clock.
 * @throws MemoryError `usage` (empty text, over the size cap, bad date), `config.invalid` (the layout has no daily note
 *   at that path), `fs.conflict` (expected hash differs, or the lock stayed busy), `fs.read-failed`
 *   (the note is binary), `fs.write-failed`.
 */
export async function appendDaily(
  ctx: Pick<MemoryContext, 'fs' | 'loaded' | 'clock'>,
  input: AppendDailyInput,
): Promise<AppendDailyResult> {
  const { text, ...options } = input;
  const deps = { fs: ctx.fs, layout: ctx.loaded.layout, clock: ctx.clock };
  checkWriteSize('text', text); // the one cap of every write path (U62)
  if (!writtenText(text).trim()) throw new MemoryError('usage', 'nothing to append: the text is empty');
  const now = deps.clock.now();
  const local = localDateTime(now);
  const date = options.date ?? local.date;
  checkDate('date', date);
  checkExpectedHash('expectedHash', options.expectedHash);
  const dir = deps.layout.memoryDir;
  const path: RelPath = toRelPath(dir ? `${dir}/${date}.md` : `${date}.md`);
  if (memoryKindForWrite(path, deps.layout) !== 'daily') {
    throw new MemoryError('config.invalid', `${path} would not be a daily note in the ${deps.layout.name} layout`, {
      data: { path },
    });
  }
  const bullet = dailyBullet(local.time, options.observation ? observationText(text, options.observation) : text);
  const { fs } = deps;
  const body = async (): Promise<AppendDailyResult> => {
    const bytes = await fs.read(path);
    let before: string | undefined;
    if (bytes) {
      const dec = decodeText(bytes);
      if (dec.problem === 'binary')
        throw new MemoryError('fs.read-failed', `${path} is binary, not a markdown file; nothing appended`, {
          data: { path },
        });
      before = dec.text;
    }
    const actual = before === undefined ? null : contentHash(before);
    if (options.expectedHash !== undefined && options.expectedHash !== actual) {
      throw new MemoryError('fs.conflict', `${path} changed since it was read; nothing was appended`, {
        data: { path, expectedHash: options.expectedHash, actualHash: actual },
        hint: 'read the note again and retry',
      });
    }
    const next = appendLine(before, date, bullet);
    if (before === undefined) {
      if (!(await fs.createTextExclusive(path, next))) {
        // Only a writer that ignores the lock can get here; never overwrite what it wrote.
        throw new MemoryError('fs.conflict', `${path} was created by another writer meanwhile; nothing was appended`, {
          data: { path },
        });
      }
    } else {
      await writeExtended(fs, path, { bytes: bytes!, text: before }, next);
    }
    const line = next.replace(/\r\n?/g, '\n').trimEnd().split('\n').length - bullet.split('\n').length + 1;
    return { path, date, line, hash: contentHash(next), created: before === undefined };
  };
  return serialised(`${fs.root}\0${path}`, () => fs.withFileLock(path, body, { waitMs: options.lockWaitMs ?? 10_000 }));
}
