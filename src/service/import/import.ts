// `gitmem import <source> [PATH]`: bring the memories an agent kept outside the repository
// (service/import/sources.ts) into the workspace as entries, each through `remember` (the one write
// path of a new entry: size cap, secret guard, validation of type and tags, the dedupe policy by
// text and by meaning, exclusive create), and one daily-note bullet saying what came in. Nothing is
// committed: the files are left as uncommitted changes for review, attributed to the agent in the
// writer record. The source is only read. A dry run asks the same guards without writing (the
// secret check and the dedupe policy against what is there). deps: core, service/remember,
// service/shared, service/review, service/import.
import { MemoryError } from '../../core/errors.js';
import { toRelPath } from '../../core/paths.js';
import { maskName } from '../../core/secret-mask.js';
import { refuseInInput } from '../../core/write-guard.js';
import { appendDaily } from '../remember/daily.js';
import { remember } from '../remember/remember.js';
import { recordWriter } from '../review/writers.js';
import { findDuplicate, findDuplicateByMeaning, probeText } from '../shared/dedupe-policy.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { titleFrom } from '../shared/text-utils.js';
import { writeCandidates } from '../shared/write-candidates.js';
import { readSourceMemories, type FoundMemory, type ImportSource } from './sources.js';

const HOST_NAME: Record<ImportSource, string> = { 'claude-code': 'Claude Code', codex: 'Codex' };

export interface ImportOptions {
  readonly source: ImportSource;
  /** The folder to read (the host's default location, or PATH). */
  readonly dir: string;
  readonly dryRun?: boolean;
}

/** What became of one memory of the source. */
export interface ImportedItem {
  /** File name in the source folder and the line the memory starts on. */
  readonly file: string;
  readonly line: number;
  readonly title: string;
  readonly type: string;
  /** created (or would be, in a dry run); a duplicate of `path`; withheld (a suspected secret); skipped (refused by a check). */
  readonly status: 'created' | 'would-create' | 'duplicate' | 'withheld' | 'skipped';
  /** The entry written, or the one it repeats. */
  readonly path?: string;
  /** Why it was withheld or skipped. */
  readonly reason?: string;
}

export interface ImportResult {
  readonly source: ImportSource;
  readonly from: string;
  readonly dryRun: boolean;
  readonly items: ImportedItem[];
  /** Source files not read, and why. */
  readonly skipped: string[];
  /** The daily note the import was recorded in (none when nothing was created). */
  readonly daily?: string;
}

async function dryCheck(ctx: MemoryContext, m: FoundMemory, title: string): Promise<ImportedItem> {
  const base = { file: m.file, line: m.line, title: maskName(title), type: m.type };
  try {
    refuseInInput('import', { text: m.text, title });
  } catch (e) {
    if (e instanceof MemoryError) return { ...base, status: 'withheld', reason: e.message };
    throw e;
  }
  const ws = await writeCandidates(ctx, { text: m.text, type: m.type, probe: probeText({ text: m.text, title }) });
  const dup = findDuplicate(ws.docs(), { text: m.text, type: m.type }, ctx.config.dedupe.jaccard);
  if (dup) return { ...base, status: 'duplicate', path: dup.doc.path };
  const near = await findDuplicateByMeaning(ctx, ws, { text: m.text, type: m.type, title });
  if (near) return { ...base, status: 'duplicate', path: near.path };
  return { ...base, status: 'would-create' };
}

/** Import the memories of `o.dir`; see the module comment. @throws MemoryError `usage` (no such folder) */
export async function importMemories(ctx: MemoryContext, o: ImportOptions): Promise<ImportResult> {
  const { memories, skipped } = readSourceMemories(o.source, o.dir);
  const items: ImportedItem[] = [];
  const written = new Map<string, string>();
  for (const m of memories) {
    const title = (m.title ?? titleFrom(m.text)).trim();
    if (o.dryRun) {
      items.push(await dryCheck(ctx, m, title));
      continue;
    }
    // The report names each memory by its title, masked: a withheld one's title may hold the key.
    const base = { file: m.file, line: m.line, title: maskName(title), type: m.type };
    try {
      const r = await remember(ctx, {
        text: m.text,
        type: m.type,
        ...(m.title ? { title: m.title } : {}),
        tags: ['imported', o.source],
        source: { origin: 'import', agent: o.source, file: m.file },
      });
      if (r.status === 'created') {
        items.push({ ...base, status: 'created', path: r.path });
        const bytes = await ctx.fs.read(toRelPath(r.path));
        if (bytes) written.set(r.path, new TextDecoder().decode(bytes));
      } else items.push({ ...base, status: 'duplicate', path: r.path });
    } catch (e) {
      if (!(e instanceof MemoryError)) throw e;
      const withheld = e.code === 'secret.found';
      items.push({ ...base, status: withheld ? 'withheld' : 'skipped', reason: e.message });
    }
  }
  let daily: string | undefined;
  const created = items.filter((i) => i.status === 'created').length;
  if (created > 0) {
    const dup = items.filter((i) => i.status === 'duplicate').length;
    const note = await appendDaily(ctx, {
      text: `imported ${created} memor${created === 1 ? 'y' : 'ies'} from ${HOST_NAME[o.source]}'s memory folder (gitmem import ${o.source}; ${dup} already here): ${items
        .filter((i) => i.status === 'created')
        .map((i) => `[[${i.path!.replace(/^.*\//, '').replace(/\.md$/, '')}]]`)
        .join(', ')}`,
    });
    daily = note.path;
    const text = await ctx.fs.read(toRelPath(note.path));
    if (text) written.set(note.path, new TextDecoder().decode(text));
  }
  // the writer record: these files were written by an agent (through this import), for review
  await recordWriter(ctx.storage, written, 'agent', `import:${o.source}`);
  return { source: o.source, from: o.dir, dryRun: o.dryRun === true, items, skipped, ...(daily ? { daily } : {}) };
}
