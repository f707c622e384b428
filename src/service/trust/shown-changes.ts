// What `gitmem sync` and `gitmem diff` show about memory that changed, masked (R142): a teammate's
// file named after a token, an entry id, a front-matter value or an added line holding a credential
// is shown as core/secret-mask.ts masks a name (`ghp_…[redacted: GitHub token]`), the incoming
// findings' ids, paths and hints too; values, section names and text and added lines that read as an
// instruction are labelled as `get` labels them (R186). The use cases keep the real paths (sync checks, indexes and
// records by them); the commands mask what they print, text and --json. deps: core, service (types).
import { nameForAgent } from '../../core/agent-text.js';
import { flaggedLines, labelLine, markInjection, showHidden } from '../../core/injection.js';
import { maskName, maskSecrets } from '../../core/secret-mask.js';
import type { MemoryDiffChange, MemoryDiffReport } from '../git-ops/diff.js';
import type { IncomingFinding } from '../git-ops/incoming-checks.js';
import type { SyncReport } from '../git-ops/sync-types.js';
import { maskSyncCommits } from './shown-names.js';

/** A front-matter value as shown: every string in it masked as a name is, labelled when it orders (R186). */
function maskValue(v: unknown): unknown {
  if (typeof v === 'string') return nameForAgent(v);
  if (Array.isArray(v)) return v.map(maskValue);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [maskName(k), maskValue(x)]));
  return v;
}

/** Text shown as written in a file (a section, added lines), masked line for line; markers ignored. */
const maskText = (t: string): string => maskSecrets(t, 'ignored');

/**
 * Added lines (masked) as shown: hidden characters escaped, and labelled when they read as an
 * instruction, each alone or two adjacent file lines as one (core/injection.ts `flaggedLines`, R186).
 */
function labelAdded(lines: readonly { readonly line: number; readonly text: string }[]): string[] {
  const flagged = flaggedLines(lines);
  return lines.map((l) => (flagged.has(l.line) ? labelLine(showHidden(l.text)) : showHidden(l.text)));
}

/** One change with its path, id, field values, sections and added lines masked. */
function maskChange(c: MemoryDiffChange): MemoryDiffChange {
  // Added lines are masked together, so a token wrapped across two of them is found (R131).
  const masked = maskText(c.linesAdded.map((l) => l.text).join('\n')).split('\n');
  const added = labelAdded(c.linesAdded.map((l, i) => ({ line: l.line, text: masked[i] ?? l.text })));
  return {
    ...c,
    path: maskName(c.path),
    ...(c.id !== undefined ? { id: maskName(c.id) } : {}),
    ...(c.renamedFrom !== undefined ? { renamedFrom: maskName(c.renamedFrom) } : {}),
    fields: c.fields.map((f) => ({
      key: maskName(f.key),
      ...('before' in f ? { before: maskValue(f.before) } : {}),
      ...('after' in f ? { after: maskValue(f.after) } : {}),
    })),
    sections: c.sections.map((s) => ({
      name: nameForAgent(s.name),
      ...(s.before !== undefined ? { before: markInjection(maskText(s.before)) } : {}),
      ...(s.after !== undefined ? { after: markInjection(maskText(s.after)) } : {}),
    })),
    linesAdded: c.linesAdded.map((l, i) => ({ ...l, text: added[i] ?? l.text })),
  };
}

/** A memory diff as `gitmem diff` and `gitmem sync` show it: every change masked. */
export function maskMemoryDiff<D extends MemoryDiffReport>(d: D): D {
  return { ...d, changes: d.changes.map(maskChange) };
}

/** An incoming finding as shown: both entries' ids and paths, and the hint naming them, masked. */
function maskFinding(f: IncomingFinding): IncomingFinding {
  return {
    ...f,
    id: maskName(f.id),
    path: maskName(f.path),
    with: { id: maskName(f.with.id), path: maskName(f.with.path) },
    hint: maskName(f.hint),
  };
}

/**
 * A sync's report as `gitmem sync` shows it: commit summaries as `gitmem log` shows them, and the
 * memory diff, incoming findings and the paths of held-back files masked.
 */
export function maskSyncReport<R extends SyncReport>(r: R): R {
  return {
    ...maskSyncCommits(r),
    ignored: r.ignored.map(maskName),
    binary: r.binary.map(maskName),
    oversized: r.oversized.map((o) => ({ ...o, path: maskName(o.path) })),
    memoryDiff: r.memoryDiff ? maskMemoryDiff(r.memoryDiff) : null,
    incomingFindings: r.incomingFindings.map(maskFinding),
  };
}
