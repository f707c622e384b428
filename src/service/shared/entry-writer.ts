// The one writer of a new entry file (a typed entry or a playbook entry), in this order: the size
// cap and the secret scan of the inputs its name and text come from ({@link checkEntryInput}), the
// layout check of its path, the first free id (core/entry-id.ts), the render (parse/serialize.ts),
// and an exclusive create that never overwrites a file (MemoryFs.createTextExclusive; a taken name
// moves on to the next id). remember, complete-task and the ACE curator's new playbook entries write
// through {@link createEntry}; the editor's actions, which offer the file as a workspace edit instead
// of writing it, plan it through {@link planEntryFile}. deps: core, parse.
import { MemoryError } from '../../core/errors.js';
import type { MemoryFs } from '../../core/ports.js';
import { idCandidates } from '../../core/entry-id.js';
import { memoryKindForWrite, type Layout } from '../../core/layout.js';
import { toRelPath, type RelPath } from '../../core/paths.js';
import { secretsInWrite } from '../../core/secrets.js';
import { refuseInInput } from '../../core/write-guard.js';
import { checkWriteSize } from '../../core/write-limits.js';
import { renderWithFrontMatter } from '../../parse/serialize.js';

/** What the writer needs of a use case's context (a MemoryContext has it). */
export interface EntryWriterContext {
  readonly fs: Pick<MemoryFs, 'createTextExclusive'>;
  readonly loaded: { readonly layout: Layout };
}

/** A new entry file to write. */
export interface NewEntry {
  /** The folder (`<memory>/entries` or the playbook folder). */
  readonly dir: string;
  /** The id base (core/entry-id.ts entryIdBase, playbookIdBase); `-2`, `-3`, … on a taken id. */
  readonly base: string;
  /** Front-matter after `id`, in file order (rendered one YAML value per key). */
  readonly data: Readonly<Record<string, unknown>> | ((id: string) => Readonly<Record<string, unknown>>);
  /** Markdown body after the front-matter (conventionally starting with a blank line). */
  readonly body: string | ((id: string) => string);
  /** Ids known to be in use (the parsed workspace's); the exclusive create catches the rest. */
  readonly taken?: (id: string) => boolean;
}

/** A written (or planned) entry file. */
export interface EntryFile {
  readonly id: string;
  readonly path: RelPath;
  readonly text: string;
}

/** The folder new typed entries go to: `<memoryDir>/entries`, or `entries` when memory is the root. */
export function entriesDir(layout: Pick<Layout, 'memoryDir'>): string {
  return layout.memoryDir ? `${layout.memoryDir}/entries` : 'entries';
}

/** The inputs of {@link checkEntryInput}: texts as given (size-capped) and the fields to scan. */
export interface EntryInputCheck {
  /** The operation, for messages (`remember`, `complete-task`). */
  readonly what: string;
  /** Texts under the size cap of every write path, by field name, as the caller received them. */
  readonly sized: Readonly<Record<string, string | undefined>>;
  /** Every input the entry's name and text are derived from, by field name, as they are written. */
  readonly scanned: Readonly<Record<string, string | readonly string[] | undefined>>;
}

/**
 * The writer's first two steps, before anything is derived from the inputs: the size cap
 * (core/write-limits.ts), then the secret scan (core/secrets.ts), so no id or file name is ever
 * computed from a credential.
 * @throws MemoryError `usage` (a text over the cap), `secret.found`.
 */
export function checkEntryInput(input: EntryInputCheck): void {
  for (const [name, v] of Object.entries(input.sized)) if (v !== undefined) checkWriteSize(name, v);
  refuseInInput(input.what, input.scanned);
}

function rendered(entry: NewEntry, id: string, layout: Layout): EntryFile {
  const path = toRelPath(`${entry.dir}/${id}.md`);
  // An entry the config's `ignore` covers would never be read, recalled or committed (U18).
  memoryKindForWrite(path, layout);
  const data = typeof entry.data === 'function' ? entry.data(id) : entry.data;
  const body = typeof entry.body === 'function' ? entry.body(id) : entry.body;
  return { id, path, text: renderWithFrontMatter({ id, ...data }, body) };
}

/**
 * Layout check → free id → render, without writing: the file an editor action offers. The guards
 * of a write that is only offered: undefined when the layout refuses the path (an `ignore` glob, not
 * memory) or its name or text holds a credential. Never throws.
 */
export function planEntryFile(layout: Layout, entry: NewEntry): EntryFile | undefined {
  for (const id of idCandidates(entry.base)) {
    if (entry.taken?.(id)) continue;
    let file: EntryFile;
    try {
      file = rendered(entry, id, layout);
    } catch (e) {
      if (e instanceof MemoryError) return undefined;
      throw e;
    }
    // The file a person's editor action offers (and the person applies): their marked lines count.
    return secretsInWrite(file.path, file.text, '', 'honoured').length > 0 ? undefined : file;
  }
  /* c8 ignore next */
  return undefined;
}

/**
 * Layout check → free id → render → exclusive create: the first id neither `taken` nor already a
 * file (one the parsed workspace does not hold: ignored, too large, named unlike its `id:`), so two
 * writers choosing the same name, other processes included, never overwrite each other. The file
 * system port runs its write guards (confinement, NUL, the secret scan of the rendered text).
 * @throws MemoryError `path.ignored`, `path.not-memory`, `secret.found`, `fs.write-failed`.
 */
export async function createEntry(ctx: EntryWriterContext, entry: NewEntry): Promise<EntryFile> {
  for (const id of idCandidates(entry.base)) {
    if (entry.taken?.(id)) continue;
    const file = rendered(entry, id, ctx.loaded.layout);
    if (await ctx.fs.createTextExclusive(file.path, file.text)) return file;
  }
  /* c8 ignore next */
  throw new Error('unreachable');
}
