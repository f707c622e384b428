// Metadata filters of a recall (types, tags, kinds, linked files, dates, agent, hidden memories):
// which chunks a query may return. deps: core, engine (types), service/recall.
import { matchesAny } from '../../core/glob.js';
import type { ChunkRecord } from '../../engine/chunks/index-manager.js';
import { hiddenReason } from './priors.js';
import type { RecallOptions } from './types.js';

export type Filters = Required<Pick<RecallOptions, 'types' | 'tags' | 'kinds'>> &
  RecallOptions & { readonly superseded: ReadonlyMap<string, readonly string[]> };

export function accept(c: ChunkRecord, f: Filters): boolean {
  if (hiddenReason(c, f.superseded) && !f.includeHidden) return false;
  if (f.kinds.length && !f.kinds.includes(c.kind)) return false;
  if (f.types.length && !(c.entry?.type && f.types.includes(c.entry.type))) return false;
  if (f.tags.length && !f.tags.some((t) => c.tags.includes(t))) return false;
  if (f.agent && (c.agent ?? '').toLowerCase() !== f.agent.trim().toLowerCase()) return false;
  if (f.file) {
    const files = c.files ?? [];
    const glob = f.file.replace(/^\.\//, '');
    if (!files.some((p) => matchesAny(p.replace(/^\.\//, ''), [glob, `**/${glob}`]))) return false;
  }
  if (f.since || f.until) {
    // Day granularity: compare the YYYY-MM-DD prefixes of ISO dates and date-times.
    if (!c.date) return false;
    const d = c.date.slice(0, 10);
    if (f.since && d < f.since.trim().slice(0, 10)) return false;
    if (f.until && d > f.until.trim().slice(0, 10)) return false;
  }
  return true;
}
