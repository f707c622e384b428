// `gitmem export <target>`: write the memory a host always loads (the working state, MEMORY.md's
// first items, how to ask for more) as a block between markers in that host's always-loaded file
// (service/export/targets.ts), packed so the whole file stays within what the host loads. The rest
// of the file is a person's and is kept byte for byte (the markdown block edit of
// service/integrate/edits.ts). Deterministic: with nothing changed a second run writes nothing.
// Secrets are never exported (masked by core/secret-mask.ts, each named); lines flagged as
// instructions and unreviewed incoming memory are left out by the trust stage (quoted.ts). A dry run
// returns the diff and writes nothing. deps: core, continuity, engine (parse cache), ace
// (unified-diff), service/integrate, service/shared.
import { dirname, resolve } from 'node:path';
import { rmSync } from 'node:fs';
import { unifiedDiff } from '../../ace/unified-diff.js';
import { loadCut, type LoadBudget } from '../../core/budget.js';
import { bodyOf } from '../../core/document.js';
import { refuseSecretsInWrite } from '../../core/secrets.js';
import { parseCached } from '../../engine/load/parse-cache.js';
import { addBlock, removeBlock } from '../integrate/edits.js';
import { assertWritable, confined, makeDirs, read, writeAtomic } from '../integrate/project-files.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { EXPORT_MARKERS, memoryItems, pack, type LeftOut, type Masked, type MemoryItem } from './pack.js';
import { quotedExport } from './quoted.js';
import { budgetWords, HOST_FILES, type ExportTarget } from './targets.js';

export interface ExportOptions {
  readonly target: ExportTarget;
  /** The repository root: the target file is written here. */
  readonly root: string;
  readonly dryRun?: boolean;
  /** Take the block out instead (the file is deleted when nothing else is left in it). */
  readonly remove?: boolean;
  /** Override the host's limit (e.g. Codex with a raised project_doc_max_bytes). */
  readonly budget?: Partial<LoadBudget>;
}

export interface ExportResult {
  readonly target: ExportTarget;
  readonly host: string;
  /** Path from the repository root, and absolute. */
  readonly path: string;
  readonly file: string;
  readonly action: 'create' | 'update' | 'unchanged' | 'delete';
  readonly dryRun: boolean;
  /** Unified diff of the change ('' when unchanged). */
  readonly diff: string;
  readonly budget: LoadBudget;
  /** The file as written: lines and UTF-8 bytes. */
  readonly lines: number;
  readonly bytes: number;
  readonly stateIncluded: boolean;
  /** MEMORY.md items in the block, of how many. */
  readonly included: number;
  readonly items: number;
  /** MEMORY.md items (and the working state) that did not fit the limit. */
  readonly leftOut: LeftOut[];
  /** Suspected credentials masked in the block. */
  readonly masked: Masked[];
  /** The file passes the limit even without the block (a person's text already fills it). */
  readonly overWithoutBlock: boolean;
  /**
   * What the trust stage left out (service/export/quoted.ts), as the block's `_Left out: …_` line
   * says it: lines flagged as instructions, unreviewed incoming state and items.
   */
  readonly withheld?: string;
}

/** Plan and (unless a dry run) write the export; see the module comment. @throws EditError (a path outside the root) */
export async function exportMemory(ctx: MemoryContext, o: ExportOptions): Promise<ExportResult> {
  const target = HOST_FILES[o.target];
  const budget: LoadBudget = { ...target.budget, ...o.budget };
  const base = resolve(o.root);
  const file = confined(base, target.path);
  const before = read(file);
  const raw = await ctx.read();
  const longTerm = raw.files.filter((f) => f.kind === 'long_term');
  const items: MemoryItem[] = [];
  for (const f of longTerm) {
    const doc = parseCached(f, ctx.config, ctx.docCache);
    const body = bodyOf(doc);
    const firstLine = f.text.slice(0, f.text.length - body.length).split('\n').length;
    items.push(...memoryItems(f.path, body, firstLine));
  }
  const stateFile = raw.files.find((f) => f.kind === 'current_state');
  const fits = (body: string) => loadCut(addBlock(before, body, EXPORT_MARKERS, target.preamble), budget) === undefined;

  let after: string | undefined;
  const quoted = o.remove
    ? undefined
    : await quotedExport(ctx, stateFile, new Map(longTerm.map((f) => [f.path, f.text])), items, 100_000);
  let packed = { included: 0, stateIncluded: false, leftOut: [] as LeftOut[], masked: [] as Masked[] };
  if (o.remove) after = before === undefined ? undefined : removeBlock(before, EXPORT_MARKERS, target.preamble);
  else {
    const p = pack({
      target: o.target,
      state: { path: stateFile?.path ?? 'CURRENT_STATE.md', text: quoted!.state },
      items: quoted!.items,
      ...(quoted!.withheld ? { withheld: quoted!.withheld } : {}),
      memoryPath: longTerm[0]?.path ?? 'MEMORY.md',
      limit: `${budgetWords(budget)} that ${target.host} loads`,
      fits,
    });
    packed = p;
    after = addBlock(before, p.body, EXPORT_MARKERS, target.preamble);
  }
  const withoutBlock = before === undefined ? undefined : removeBlock(before, EXPORT_MARKERS, target.preamble);
  const action: ExportResult['action'] =
    after === undefined
      ? before === undefined
        ? 'unchanged'
        : 'delete'
      : before === undefined
        ? 'create'
        : before === after
          ? 'unchanged'
          : 'update';
  const size = after ?? '';
  const result: ExportResult = {
    target: o.target,
    host: target.host,
    path: target.path,
    file,
    action,
    dryRun: o.dryRun === true,
    diff: unifiedDiff(target.path, before, after),
    budget,
    lines: size === '' ? 0 : size.replace(/\n$/, '').split('\n').length,
    bytes: Buffer.byteLength(size, 'utf8'),
    stateIncluded: packed.stateIncluded,
    included: packed.included,
    items: items.length,
    leftOut: packed.leftOut,
    masked: packed.masked,
    overWithoutBlock: withoutBlock !== undefined && loadCut(withoutBlock, budget) !== undefined,
    ...(quoted?.withheld ? { withheld: quoted.withheld } : {}),
  };
  if (before === after) return result;
  assertWritable(file, target.path);
  if (o.dryRun) return result;
  if (after === undefined) rmSync(file, { force: true });
  else {
    // the last guard of every write: nothing that reads as a credential leaves in a new line; the host
    // file quotes a person's memory as it stands (pack.ts masked what is unmarked), so their marks count
    refuseSecretsInWrite(target.path, after, before ?? '', 'honoured');
    makeDirs(dirname(file), base);
    writeAtomic(file, after);
  }
  return result;
}
