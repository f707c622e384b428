// The one way the memory tool writes a file, through the guards every write path shares: the size
// cap (core/write-limits.ts), validation (the file parses as memory with no error diagnostic), the
// memory-path and ignore guard and the confinement and secret scan of the Memory's file system
// (service/shared/memory-files.ts writeMemoryFile / createMemoryFile over MemoryFs), then the writer record
// (service/review/writers.ts: an agent's write, `unreviewed` until approved) and, for a long-lived
// Memory, the index update. Nothing is committed. deps: core, service/shared (the context), service/review,
// service/memory-tool.
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { memoryKindForWrite } from '../../core/layout.js';
import type { FileChangeBatch } from '../../core/ports.js';
import { checkWriteSize } from '../../core/write-limits.js';
import { parseCached } from '../../engine/load/parse-cache.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { createMemoryFile, writeMemoryFile } from '../shared/memory-files.js';
import { recordWriter } from '../review/writers.js';
import type { ToolPath } from './paths.js';
import { MemoryToolError } from './types.js';

/** A refusal by a gitmem guard as the tool's error text (message, then the hint when there is one). */
export function toolError(e: unknown): unknown {
  if (!(e instanceof MemoryError)) return e;
  return new MemoryToolError(e.hint ? `${e.message} (${e.hint})` : e.message, e.code);
}

/** Tell a long-lived Memory (`manual` freshness) what changed, so recall answers from it at once. */
export async function applyToIndex(ctx: MemoryContext, batch: FileChangeBatch): Promise<void> {
  if (ctx.freshnessMode === 'manual') await ctx.freshness.changes.add(batch);
}

/**
 * Check `text` as the next content of `p`: the size cap and validation.
 * @throws MemoryToolError naming the cap or the first error diagnostics.
 */
function check(ctx: MemoryContext, p: ToolPath, text: string): void {
  try {
    checkWriteSize(p.shown, text);
    const kind = memoryKindForWrite(p.rel, ctx.loaded.layout);
    const doc = parseCached({ path: p.rel, kind, text, hash: contentHash(text) }, ctx.config, ctx.docCache);
    const errors = doc.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length)
      throw new MemoryToolError(
        `${p.shown} was not written: it does not validate as memory (${errors
          .slice(0, 3)
          .map((d) => `line ${d.range.start.line + 1}: ${d.message}`)
          .join('; ')})`,
        'validation',
      );
  } catch (e) {
    throw toolError(e);
  }
}

/**
 * Write `text` to `p`: `create` only when nothing is there (never replacing a file), `replace` over
 * the file read a moment ago. `via` names the channel in the writer record.
 * @throws MemoryToolError `File … already exists` (create), or a guard's refusal; nothing written.
 */
export async function writeToolFile(
  ctx: MemoryContext,
  p: ToolPath,
  text: string,
  mode: 'create' | 'replace',
  via: string,
): Promise<void> {
  check(ctx, p, text);
  try {
    if (mode === 'create') {
      if (!(await createMemoryFile(ctx, p.rel, text))) throw new MemoryToolError(`File ${p.shown} already exists`);
    } else await writeMemoryFile(ctx, p.rel, text);
  } catch (e) {
    throw toolError(e);
  }
  await recordWriter(ctx.storage, new Map([[p.rel, text]]), 'agent', via);
  await applyToIndex(ctx, {
    created: mode === 'create' ? [p.rel] : [],
    changed: mode === 'replace' ? [p.rel] : [],
    deleted: [],
  });
}
