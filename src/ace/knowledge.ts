// Read-side ACE views over the parsed workspace: the playbook (filtered, by priority), tag usage,
// file knowledge (what memory says about a code path) and recommended files for a task.
// Pure and deterministic; imports only core.
import type { MemoryDoc } from '../core/document.js';
import { globMatcher } from '../core/glob.js';
import type { MemoryWorkspace } from '../core/workspace.js';
import { playbookSummaries, type PlaybookSummary } from './curator.js';

export interface PlaybookFilter {
  readonly category?: string;
  readonly tag?: string;
  /** Include soft-deleted (`active: false`) entries. */
  readonly includeInactive?: boolean;
}

/** Playbook entries matching `filter`, highest priority first, then by id. */
export function listPlaybook(ws: MemoryWorkspace, filter: PlaybookFilter = {}): PlaybookSummary[] {
  const cat = filter.category?.trim().toLowerCase();
  const tag = filter.tag?.trim().replace(/^#/, '').toLowerCase();
  return playbookSummaries(ws.docs())
    .filter(
      (p) =>
        (filter.includeInactive || p.active) &&
        (!cat || p.category.toLowerCase() === cat) &&
        (!tag || p.tags.includes(tag)),
    )
    .sort((a, b) => b.priority - a.priority || a.id.localeCompare(b.id));
}

export interface TagUsage {
  readonly tag: string;
  /** Entries + playbook entries carrying the tag. */
  readonly count: number;
  readonly entries: number;
  readonly playbook: number;
}

/** Tags used by entries and playbook entries, most used first (ties by name). Hidden entries count too. */
export function tagUsage(ws: MemoryWorkspace): TagUsage[] {
  const m = new Map<string, { entries: number; playbook: number }>();
  for (const d of ws.docs()) {
    if (d.kind !== 'entry' && d.kind !== 'playbook') continue;
    for (const t of new Set(d.meta.tags)) {
      const u = m.get(t) ?? { entries: 0, playbook: 0 };
      if (d.kind === 'entry') u.entries++;
      else u.playbook++;
      m.set(t, u);
    }
  }
  return [...m]
    .map(([tag, u]) => ({ tag, count: u.entries + u.playbook, entries: u.entries, playbook: u.playbook }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag));
}

/** How `query` matches a linked path: exact, folder prefix, or glob. */
function pathMatcher(query: string): (p: string) => boolean {
  const q = query.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  if (/[*?[{]/.test(q)) {
    const re = globMatcher(q);
    const deep = globMatcher(`**/${q}`);
    return (p) => re.test(p) || deep.test(p);
  }
  return (p) => {
    const n = p.replace(/^\.\//, '');
    return n === q || n.startsWith(`${q}/`) || n.endsWith(`/${q}`);
  };
}

export interface FileMemory {
  readonly id: string;
  readonly path: string;
  readonly type: string | null;
  readonly title: string | null;
  /** How the memory relates to the file (`modified`, `read`, …; `mentioned` for text mentions). */
  readonly relation: string;
  readonly lines?: readonly number[];
  readonly created?: string;
  readonly status?: string;
}

export interface FileKnowledge {
  readonly path: string;
  /** Entries linked to the path in `files:`, newest first. */
  readonly memories: FileMemory[];
  /** Playbook entries citing those entries in `supporting`, or naming the path in their text. */
  readonly playbook: Array<{
    id: string;
    path: string;
    title: string;
    category: string;
    priority: number;
    via: 'supporting' | 'mention';
  }>;
  /** Other memory text naming the path (`path:line`). */
  readonly mentions: Array<{ path: string; line: number; text: string }>;
  /** Other code files linked by the same memories, most co-mentioned first. */
  readonly relatedFiles: Array<{ path: string; count: number }>;
  readonly counts: { memories: number; playbook: number; mentions: number; relatedFiles: number };
}

/**
 * What memory knows about a code path (a file, a folder, or a glob): linked entries, playbook
 * entries that cite them or name the path, text mentions, and co-mentioned files.
 */
export function fileKnowledge(
  ws: MemoryWorkspace,
  query: string,
  options: { maxMentions?: number } = {},
): FileKnowledge {
  const match = pathMatcher(query);
  const q = query.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');
  const memories: FileMemory[] = [];
  const co = new Map<string, number>();
  const docs = ws.docs();
  for (const d of docs) {
    if (d.kind !== 'entry') continue;
    const hits = d.meta.files.filter((f) => match(f.path));
    if (!hits.length) continue;
    const f = hits[0]!;
    memories.push({
      id: d.meta.id ?? d.path,
      path: d.path,
      type: d.meta.type ?? null,
      title: d.meta.title ?? null,
      relation: f.relation ?? 'referenced',
      ...(f.lines ? { lines: [...f.lines] } : {}),
      ...(d.meta.date ? { created: d.meta.date } : {}),
      ...(d.meta.status ? { status: d.meta.status } : {}),
    });
    for (const other of d.meta.files) if (!match(other.path)) co.set(other.path, (co.get(other.path) ?? 0) + 1);
  }
  memories.sort((a, b) => (b.created ?? '').localeCompare(a.created ?? '') || a.id.localeCompare(b.id));
  const ids = new Set(memories.map((m) => m.id));
  const playbook: FileKnowledge['playbook'] = [];
  for (const p of playbookSummaries(docs)) {
    if (!p.active) continue;
    const via = p.supporting.some((s) => ids.has(s))
      ? 'supporting'
      : q && !/[*?[{]/.test(q) && p.body.includes(q)
        ? 'mention'
        : undefined;
    if (via) playbook.push({ id: p.id, path: p.path, title: p.title, category: p.category, priority: p.priority, via });
  }
  playbook.sort((a, b) => b.priority - a.priority || a.id.localeCompare(b.id));
  const mentions: FileKnowledge['mentions'] = [];
  if (q && !/[*?[{]/.test(q)) {
    const linked = new Set(memories.map((m) => m.path));
    for (const d of docs) {
      if (linked.has(d.path) || d.kind === 'playbook') continue;
      for (const c of d.chunks) {
        if (!c.text.includes(q)) continue;
        const off = c.text.indexOf(q);
        const line = c.startLine + (c.text.slice(0, off).match(/\n/g)?.length ?? 0);
        mentions.push({ path: d.path, line, text: c.text.replace(/\s+/g, ' ').trim().slice(0, 200) });
        if (mentions.length >= (options.maxMentions ?? 20)) break;
      }
      if (mentions.length >= (options.maxMentions ?? 20)) break;
    }
  }
  const relatedFiles = [...co]
    .map(([path, count]) => ({ path, count }))
    .sort((a, b) => b.count - a.count || a.path.localeCompare(b.path));
  return {
    path: q,
    memories,
    playbook,
    mentions,
    relatedFiles,
    counts: {
      memories: memories.length,
      playbook: playbook.length,
      mentions: mentions.length,
      relatedFiles: relatedFiles.length,
    },
  };
}

/** Code paths named in backticks in memory text (`src/db/pool.ts`). */
function mentionedPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/`([A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+\.[A-Za-z0-9]{1,8})(?::\d+)?`/g))
    if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

/**
 * Recommended files for a task from its recalled memories (best first): each memory's linked
 * files and backticked paths score 1/(rank+1), modified/created links count double.
 */
export function recommendFiles(
  hits: ReadonlyArray<{ path: string; snippet?: string }>,
  ws: MemoryWorkspace,
  options: { max?: number } = {},
): Array<{ path: string; score: number; from: string[] }> {
  const score = new Map<string, { score: number; from: Set<string> }>();
  const add = (p: string, s: number, from: string) => {
    const cur = score.get(p) ?? { score: 0, from: new Set<string>() };
    cur.score += s;
    cur.from.add(from);
    score.set(p, cur);
  };
  hits.forEach((h, rank) => {
    const d: MemoryDoc | undefined = ws.tryGet(h.path as never);
    const w = 1 / (rank + 1);
    const from = d?.meta.id ?? h.path;
    for (const f of d?.meta.files ?? [])
      add(f.path, w * (f.relation === 'modified' || f.relation === 'created' ? 2 : 1), from);
    for (const p of mentionedPaths(h.snippet ?? '')) add(p, w * 0.5, from);
  });
  return [...score]
    .map(([path, v]) => ({ path, score: Number(v.score.toFixed(4)), from: [...v.from].sort() }))
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
    .slice(0, options.max ?? 10);
}
