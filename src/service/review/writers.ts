// The writer record: who last wrote each memory file outside a commit (an agent over MCP, or a human
// in the editor), kept in derived state as `writers.json` beside the index. A record counts only
// while the file still has the content hash it was written with: any later edit, by anyone, makes
// the record stale and the file is then attributed to a human — except, in a daily note (an
// append-only log of separate lines), lines added after the written text (a person's `gitmem append`
// or a line typed at the end of the note an agent observed into): the agent's lines are still there,
// unreviewed, so the record holds (R66). deps: core.
import { contentHash } from '../../core/hash.js';
import type { IndexStorage } from '../../core/ports.js';

/** Who wrote a change: an agent (MCP tools) or a human (the editor, a hand edit). */
export type Writer = 'agent' | 'human';

/** One file's record. */
export interface WriterRecord {
  readonly writer: Writer;
  /** The channel: `mcp`, `editor`, … */
  readonly via: string;
  /** ISO-8601 time of the write. */
  readonly at: string;
  /** Content hash of the text written (core/hash.ts contentHash). */
  readonly hash: string;
  /** Length of the text written (UTF-16 units, BOM dropped, line breaks as LF): records without it match whole files only. */
  readonly chars?: number;
}

/** Text as core/hash.ts contentHash reads it: no BOM, LF line breaks. */
const normal = (text: string): string => text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

const FILE = 'writers.json';
/**
 * Most records kept before any is dropped. Over it a person's records go first, oldest first: they
 * only repeat the default (no record reads as a person's write). An agent's record is what keeps its
 * file `unreviewed`, so it is dropped only past MAX_AGENT_RECORDS (about 190 bytes each, 19 MB there):
 * dropping it at 2,000 made older agent writes read as a person's, reviewed (R112).
 */
const MAX_RECORDS = 2000;
export const MAX_AGENT_RECORDS = 100_000;

/** Drop records of `all` (insertion order = oldest first) as MAX_RECORDS and MAX_AGENT_RECORDS say. */
function trim(all: Record<string, WriterRecord>): void {
  const keys = Object.keys(all);
  let over = keys.length - MAX_RECORDS;
  if (over <= 0) return;
  for (const k of keys) {
    if (over === 0) break;
    if (all[k]!.writer !== 'agent') {
      delete all[k];
      over--;
    }
  }
  const agents = Object.keys(all);
  for (const k of agents.slice(0, Math.max(0, agents.length - MAX_AGENT_RECORDS))) delete all[k];
}

async function readAll(storage: IndexStorage): Promise<Record<string, WriterRecord>> {
  try {
    const bytes = await storage.read(FILE);
    if (!bytes) return {};
    const data = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, WriterRecord>) : {};
  } catch {
    return {}; // unreadable derived state: start over, it only affects attribution
  }
}

/** How long a record update waits for another process's (ms): each holds it for one read and replace. */
const LOCK_WAIT_MS = 10_000;

/**
 * Record that `writer` wrote `files` (workspace-relative path → the text written). The read, change
 * and replace holds the record's own lock (`writers.lock`): two writers at once (two agents' MCP
 * servers) each kept only their own records before, and the other's files read as a person's,
 * reviewed (R121). A holder alive past LOCK_WAIT_MS is waited out no longer: the update goes ahead.
 * Best effort: a failure to save the record never fails the write itself.
 */
export async function recordWriter(
  storage: IndexStorage,
  files: ReadonlyMap<string, string>,
  writer: Writer,
  via: string,
  now = new Date(),
): Promise<void> {
  if (files.size === 0) return;
  const lock = await storage
    .lock?.({ name: 'writers', waitMs: LOCK_WAIT_MS, purpose: 'writer record' })
    .catch(() => undefined);
  try {
    const all = await readAll(storage);
    for (const [path, text] of files) {
      delete all[path];
      all[path] = { writer, via, at: now.toISOString(), hash: contentHash(text), chars: normal(text).length };
    }
    trim(all);
    await storage.write(FILE, JSON.stringify(all));
  } catch {
    /* attribution only */
  } finally {
    await lock?.release();
  }
}

/** A daily note's name (`YYYY-MM-DD.md`): a log whose lines are each their own. */
const DAILY = /(?:^|\/)\d{4}-\d{2}-\d{2}\.md$/;

/** True when `text` is the recorded text, or (a daily note) starts with it and adds lines after it (R66). */
function holds(r: WriterRecord, path: string, text: string): boolean {
  if (r.hash === contentHash(text)) return true;
  if (r.chars === undefined || !DAILY.test(path)) return false;
  const t = normal(text);
  return (
    t.length > r.chars && (r.chars === 0 || t[r.chars - 1] === '\n') && contentHash(t.slice(0, r.chars)) === r.hash
  );
}

/**
 * Who wrote the current text of `path`: the record when `text` is the text written, or (a daily note)
 * that text with lines added after it (R66), else a human.
 * @returns the writer and, from a matching record, its channel and time.
 */
export function writerOf(
  records: Readonly<Record<string, WriterRecord>>,
  path: string,
  text: string | undefined,
): { writer: Writer; via?: string; at?: string } {
  const r = records[path];
  if (r && text !== undefined && holds(r, path, text)) return { writer: r.writer, via: r.via, at: r.at };
  return { writer: 'human' };
}

/** Every record (empty when none or unreadable). */
export function readWriters(storage: IndexStorage): Promise<Record<string, WriterRecord>> {
  return readAll(storage);
}
