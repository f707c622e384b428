// remember: write one new entry (dedupe by text and by meaning, exclusive create, secret guard)
// under the cross-process remember lock. deps: core, parse, engine, service/shared.
import { ENTRY_TYPES } from '../../core/document.js';
import { MemoryError } from '../../core/errors.js';
import { toRelPath } from '../../core/paths.js';
import { writtenText } from '../../core/text.js';
import { entryIdBase } from '../../core/entry-id.js';
import { findPossibleConflicts, type PossibleConflict } from '../shared/conflict.js';
import { findDuplicate, findDuplicateByMeaning, probeText } from '../shared/dedupe-policy.js';
import { checkEntryInput, createEntry, entriesDir } from '../shared/entry-writer.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { titleFrom } from '../shared/text-utils.js';
import { writeCandidates } from '../shared/write-candidates.js';

export interface RememberInput {
  readonly text: string;
  readonly type?: string;
  readonly tags?: readonly string[];
  readonly files?: readonly string[];
  readonly title?: string;
  readonly source?: Readonly<Record<string, string>>;
}

export interface RememberResult {
  status: 'created' | 'duplicate';
  id: string;
  path: string;
  duplicateOf?: string;
  /**
   * A same-type, same-tag entry on the same subject that says something different (service/shared/conflict.ts).
   * Nothing is merged: supersede the old one (`supersedes: [id]`) or keep both (`compatible_with: [id]`).
   */
  possible_conflict?: PossibleConflict;
}

/**
 * Remember `input` as a new entry under `<memory>/entries/`, or answer `duplicate` with the entry it repeats.
 * @throws MemoryError `usage` (empty text, over the size cap, unknown type), `secret.found`, `fs.*`.
 */
export async function remember(ctx: MemoryContext, input: RememberInput): Promise<RememberResult> {
  const text = writtenText(input.text).trim();
  const type = input.type ?? 'learning';
  const dir = entriesDir(ctx.loaded.layout);
  // Dedupe and create under one cross-process lock: two agents remembering the same finding at
  // the same moment must give one entry and one `duplicate`, not two entries.
  const lockPath = toRelPath(`${dir}/.remember`);
  // The entry writer's first steps (service/shared/entry-writer.ts), before the lock is taken and
  // before a title, id or file name is derived from the text: the size cap of every write path
  // (U62) on the text as given, then the secret scan of every input.
  checkEntryInput({
    what: 'remember',
    sized: { text: input.text },
    scanned: {
      text,
      ...(input.title !== undefined ? { title: input.title } : {}),
      tags: input.tags ?? [],
      files: input.files ?? [],
      source: Object.values(input.source ?? {}),
    },
  });
  if (!text) throw new MemoryError('usage', 'nothing to remember: the text is empty');
  if (!(ENTRY_TYPES as readonly string[]).includes(type)) {
    throw new MemoryError('usage', `unknown memory type "${type}"`, {
      hint: `use one of: ${ENTRY_TYPES.join(', ')}`,
    });
  }
  // A tag is one line without control characters (the entry schema's rule): a tag holding a line
  // break was written as a YAML block no `tag:` filter could ever match (U23).
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a tag may not hold
  const badTag = (input.tags ?? []).find((t) => /[\u0000-\u001f\u007f\u0085\u2028\u2029]/.test(t));
  if (badTag !== undefined)
    throw new MemoryError('usage', `tag ${JSON.stringify(badTag)} holds a line break or control character`, {
      hint: 'give each tag as one word or phrase on one line',
    });
  return ctx.fs.withFileLock(lockPath, () => rememberUnlocked(ctx, text, type, dir, input), { waitMs: 30_000 });
}

async function rememberUnlocked(
  ctx: MemoryContext,
  text: string,
  type: string,
  dir: string,
  input: RememberInput,
): Promise<RememberResult> {
  const { config, clock } = ctx;
  // A title is written as one line, with the body's rule for control characters (U27).
  const givenTitle = input.title === undefined ? undefined : writtenText(input.title).replace(/\s*\n\s*/g, ' ');
  // The entries this text may repeat or contradict, found through the index (a write costs the
  // files it may repeat, not a read of the workspace; service/shared/write-candidates.ts).
  const title = (givenTitle ?? titleFrom(text)).trim();
  const ws = await writeCandidates(ctx, { text, type, probe: probeText({ text, title }) });
  // The dedupe policy (service/shared/dedupe-policy.ts): same text, or a near copy that does not conflict.
  const dup = findDuplicate(ws.docs(), { text, type }, config.dedupe.jaccard);
  if (dup)
    return {
      status: 'duplicate',
      id: dup.doc.meta.id ?? '',
      path: dup.doc.path,
      duplicateOf: dup.doc.meta.id ?? dup.doc.path,
    };
  // Near-duplicates by meaning: embedding cosine against same-type entries already embedded.
  const near = await findDuplicateByMeaning(ctx, ws, { text, type, title });
  if (near) return { status: 'duplicate', id: near.id, path: near.path, duplicateOf: near.id };
  const now = clock.now();
  const tags = [...new Set((input.tags ?? []).map((t) => t.trim().replace(/^#/, '').toLowerCase()).filter(Boolean))];
  const files = (input.files ?? []).map((f) => toRelPath(f)).map((p) => ({ path: p, relation: 'referenced' }));
  // The one entry writer: layout check, free id, render, exclusive create (never overwrites a
  // file, other processes' included: reliability, docs/DESIGN.md §10).
  const { id, path } = await createEntry(ctx, {
    dir,
    base: entryIdBase(now, title),
    taken: (x) => ws.byId(x).length > 0,
    data: {
      type,
      title,
      tags,
      ...(files.length ? { files } : {}),
      created: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      source: { origin: 'cli', ...(input.source ?? {}) },
      status: 'active',
    },
    body: `\n${text}\n`,
  });
  // A long-lived process answers from its watcher's snapshot: the new entry joins the index now,
  // so the next write's checks (write-candidates.ts) see it before the watcher reports the file.
  if (ctx.freshnessMode === 'manual') await ctx.freshness.changes.add({ created: [path], changed: [], deleted: [] });
  const conflict = findPossibleConflicts(ws, { text, type, tags, id, path }, 1)[0];
  return { status: 'created', id, path, ...(conflict ? { possible_conflict: conflict } : {}) };
}
