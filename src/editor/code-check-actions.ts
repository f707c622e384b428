// Code actions for the stale-code diagnostic (code-checks.ts): show the cited code's changes since
// the memory (a client command: the VS Code extension's `gitmem.openCodeDiff`, which asks the
// server's `gitmem/codeDiff`), mark the entry verified (`verified: <today>` in its front-matter, one
// edit by the front-matter key writer), and supersede it with a new entry draft (truth-actions.ts).
// deps: core, editor helpers.
import type { Diagnostic } from '../core/diagnostics.js';
import type { MemoryDoc } from '../core/document.js';
import type { MemoryWorkspace } from '../core/workspace.js';
import { CODE_STALE } from './code-checks.js';
import { setFrontMatterKey } from './front-matter.js';
import type { Layout } from '../core/layout.js';
import { supersedeWithNew } from './truth-actions.js';
import type { EditorAction } from './types.js';

/** The client command that opens a cited file's diff since a memory; its one argument is `gitmem/codeDiff`'s parameters. */
export const CODE_DIFF_COMMAND = 'gitmem.openCodeDiff';

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Actions for the stale-code diagnostics among `diagnostics` of `doc`: one "show the changes" per
 * cited file, then (once per request) "mark verified" and "supersede" for an entry.
 */
export function codeCheckActions(
  doc: MemoryDoc,
  diagnostics: readonly Diagnostic[],
  now: Date,
  ws: MemoryWorkspace,
  layout: Layout,
  hasFile: (path: string) => boolean,
): EditorAction[] {
  const stale = diagnostics.filter((d) => d.code === CODE_STALE && typeof d.data?.path === 'string');
  if (!stale.length) return [];
  const out: EditorAction[] = [];
  const shown = new Set<string>();
  for (const d of stale) {
    const path = d.data!.path as string;
    const since = typeof d.data!.since === 'string' ? d.data!.since : undefined;
    const movedTo = typeof d.data!.movedTo === 'string' ? d.data!.movedTo : undefined;
    if (!since || shown.has(`${path}\0${since}`)) continue;
    shown.add(`${path}\0${since}`);
    out.push({
      title: `Show the changes to ${path} since this memory`,
      kind: 'quickfix',
      diagnostic: d,
      edits: [],
      command: { command: CODE_DIFF_COMMAND, arguments: [{ path, since, ...(movedTo ? { movedTo } : {}) }] },
    });
  }
  if (doc.kind !== 'entry') return out;
  const first = stale[0]!;
  const verified = setFrontMatterKey(doc, 'verified', day(now));
  if (verified)
    out.push({
      title: `Mark verified: still true (verified: ${day(now)})`,
      kind: 'quickfix',
      diagnostic: first,
      edits: [verified],
    });
  // The new entry cites the same code, a renamed file under its new path.
  const moved = new Map(
    stale.filter((d) => typeof d.data!.movedTo === 'string').map((d) => [d.data!.path, d.data!.movedTo as string]),
  );
  const files = doc.meta.files.map((f) => moved.get(f.path) ?? f.path);
  const sup = supersedeWithNew(doc, now, ws, layout, hasFile, files);
  if (sup) out.push({ ...sup, diagnostic: first });
  return out;
}
