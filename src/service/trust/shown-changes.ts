// What `gitmem sync` and `gitmem diff` show about memory that changed, masked (R142): a teammate's
// file named after a token, an entry id, a front-matter value or an added line holding a credential
// is shown as core/secret-mask.ts masks a name (`ghp_…[redacted: GitHub token]`), the incoming
// findings' ids, paths and hints too. The use cases keep the real paths (sync checks, indexes and
// records by them); the commands mask what they print, text and --json. deps: core, service (types).
import { maskName, maskSecrets } from '../../core/secret-mask.js';
import type { MemoryDiffChange, MemoryDiffReport } from '../git-ops/diff.js';
import type { IncomingFinding } from '../git-ops/incoming-checks.js';
import type { SyncReport } from '../git-ops/sync-types.js';
import { maskSyncCommits } from './shown-names.js';

/** A front-matter value as shown: every string in it masked as a name is. */
function maskValue(v: unknown): unknown {
  if (typeof v === 'string') return maskName(v);
  if (Array.isArray(v)) return v.map(maskValue);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [maskName(k), maskValue(x)]));
  return v;
}

/** Text shown as written in a file (a section, added lines), masked line for line; markers ignored. */
const maskText = (t: string): string => maskSecrets(t, 'ignored');

/** One change with its path, id, field values, sections and added lines masked. */
function maskChange(c: MemoryDiffChange): MemoryDiffChange {
  // Added lines are masked together, so a token wrapped across two of them is found (R131).
  const added = maskText(c.linesAdded.map((l) => l.text).join('\n')).split('\n');
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
      name: maskName(s.name),
      ...(s.before !== undefined ? { before: maskText(s.before) } : {}),
      ...(s.after !== undefined ? { after: maskText(s.after) } : {}),
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
