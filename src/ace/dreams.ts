// Dreams planner (docs/DESIGN.md §6): consolidation proposals with evidence (path:line) — promotions (facts
// repeated across daily notes), merges (near-duplicate entries or playbook entries) and retirements
// (superseded, linked code gone, or old and unreferenced). Their DREAMS.md form and the edits that
// promoting one makes are in dreams-document.ts. Pure and deterministic; imports only core. Whether two
// entries repeat each other is the dedupe policy's answer (service/shared/dedupe-policy.ts repeatOf),
// passed in as DreamOptions.repeatOf: the planner keeps no similarity rule of its own for merges.
import type { MemoryDoc } from '../core/document.js';
import { dailyDateOf } from '../core/layout.js';
import type { MemoryWorkspace } from '../core/workspace.js';
import { bodyOf } from '../core/document.js';
import { contentTokens, shortHash, titleOf } from './text.js';

export type DreamKind = 'promotion' | 'merge' | 'retirement';
export type DreamStatus = 'proposed' | 'promoted' | 'rejected';

/** One place that supports a proposal (1-based line). */
export interface Evidence {
  readonly path: string;
  readonly line: number;
}

/** What promoting a proposal does. */
export type DreamAction =
  /** Add a bullet to the long-term memory file under a `## <section>` heading. */
  | { readonly type: 'append'; readonly path: string; readonly section: string; readonly text: string }
  /** Mark an entry `duplicate_of: <of>` (playbook: `active: false`). */
  | { readonly type: 'duplicate'; readonly path: string; readonly of: string }
  /** Set an entry's `status` (playbook: `active: false`). */
  | { readonly type: 'status'; readonly path: string; readonly status: 'superseded' | 'archived' };

export interface DreamProposal {
  /** `d-` + 8 hex digits, stable for the same kind and evidence. */
  readonly id: string;
  readonly kind: DreamKind;
  readonly status: DreamStatus;
  /** Heading text after the id, e.g. `promote "retry webhooks with jitter"`. */
  readonly title: string;
  readonly evidence: readonly Evidence[];
  /** Why, for the reviewer. */
  readonly why: string;
  /** Undefined for hand-written proposals without an action line. */
  readonly action?: DreamAction;
}

export interface DreamOptions {
  /** Today (for staleness). */
  readonly now: Date;
  /** Does a code path exist in the repository? Without it, the "linked code gone" rule is off. */
  readonly exists?: (path: string) => boolean;
  /** Entries older than this many days, unreferenced and unsupported, are proposed for archiving (default 365; 0 = off). */
  readonly staleDays?: number;
  /** Path of the long-term memory file promotions go to (from the layout). */
  readonly longTermPath: string;
  /** Section heading promotions go under (default `Promoted`). */
  readonly section?: string;
  /** At most this many proposals per kind (default 20). */
  readonly maxPerKind?: number;
  /**
   * Does `newer` repeat `older`? The one dedupe policy (service/shared/dedupe-policy.ts repeatOf: live
   * entries of one type or active playbook entries, never a pair linked by `supersedes`, by text or by
   * meaning), with its reason and similarity (the Jaccard, or the cosine for `meaning`).
   */
  readonly repeatOf: (
    older: MemoryDoc,
    newer: MemoryDoc,
  ) => { readonly reason: string; readonly similarity: number } | undefined;
}

const DAILY_PREFIX = /^\s*(?:[-*+]\s+)?(?:\[[ xX]\]\s+)?(?:\d{1,2}:\d{2}\s+)?(?:\[[a-z_]+\]\s+)?/;

/** A daily-note bullet with the time and `[type]` prefix removed. */
function dailyFact(text: string): string {
  return text
    .replace(/\r?\n\s*/g, ' ')
    .replace(DAILY_PREFIX, '')
    .trim();
}

interface Fact {
  readonly path: string;
  readonly line: number;
  readonly date: string;
  readonly text: string;
  readonly tokens: ReadonlySet<string>;
}

function proposalId(kind: DreamKind, evidence: readonly Evidence[], extra = ''): string {
  return `d-${shortHash(
    `${kind}\0${evidence
      .map((e) => `${e.path}:${e.line}`)
      .sort()
      .join('\0')}\0${extra}`,
  )}`;
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): { shared: string[]; coeff: number } {
  const shared: string[] = [];
  for (const t of a) if (b.has(t)) shared.push(t);
  return { shared, coeff: shared.length / Math.max(1, Math.min(a.size, b.size)) };
}

/** Pairs of items sharing at least one token that is not too common (inverted index; avoids n²). */
function candidatePairs(items: readonly { tokens: ReadonlySet<string> }[], maxPosting = 60): Array<[number, number]> {
  const post = new Map<string, number[]>();
  items.forEach((it, i) => {
    for (const t of it.tokens) {
      const l = post.get(t);
      if (l) l.push(i);
      else post.set(t, [i]);
    }
  });
  const seen = new Set<number>();
  const pairs: Array<[number, number]> = [];
  const n = items.length;
  for (const list of post.values()) {
    if (list.length < 2 || list.length > maxPosting) continue;
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const a = list[x]!;
        const b = list[y]!;
        const key = a * n + b;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push([a, b]);
      }
    }
  }
  return pairs.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}

/** Top-level bullets of a document with their 1-based line (continuation lines joined). */
export function bullets(doc: MemoryDoc): Array<{ line: number; text: string }> {
  const lines = doc.text.replace(/\r\n?/g, '\n').split('\n');
  const start = doc.frontMatter ? doc.frontMatter.range.end.line + 1 : 0;
  const out: Array<{ line: number; text: string }> = [];
  let fence = false;
  for (let i = start; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^\s*(```|~~~)/.test(l)) fence = !fence;
    if (fence) continue;
    if (/^[-*+]\s+\S/.test(l)) out.push({ line: i + 1, text: l });
    else if (
      out.length &&
      /^\s{2,}\S/.test(l) &&
      !/^\s*[-*+]\s/.test(l) &&
      out[out.length - 1]!.line + countJoined(out[out.length - 1]!.text) === i + 1
    ) {
      out[out.length - 1] = { line: out[out.length - 1]!.line, text: `${out[out.length - 1]!.text}\n${l}` };
    }
  }
  return out;
}

const countJoined = (t: string) => t.split('\n').length;

/**
 * Is a bullet a statement worth promoting? Not an intro line ending in a colon ("Next steps:"), not a
 * short `Key: value` metadata line ("**Session Key**: agent:main", "ID: 42").
 */
function isFactLike(text: string, tokenCount: number): boolean {
  const t = text.replace(/\*\*/g, '').trim();
  if (/[:：]$/.test(t)) return false;
  const kv = /^([^:：]{1,24})[:：]\s*(.+)$/.exec(t);
  if (kv && tokenCount < 8 && !/\s/.test(kv[2]!.trim().replace(/\s*[/,]\s*/g, '/'))) return false;
  return true;
}

/** Facts from daily notes repeated on at least two different days, not yet in long-term memory. */
function promotions(ws: MemoryWorkspace, opts: DreamOptions): DreamProposal[] {
  const facts: Fact[] = [];
  const longTerm: Set<string>[] = [];
  for (const d of ws.docs()) {
    if (d.kind === 'long_term') for (const b of bullets(d)) longTerm.push(new Set(contentTokens(b.text)));
    if (d.kind !== 'daily') continue;
    const date = d.meta.date?.slice(0, 10) ?? dailyDateOf(d.path) ?? '';
    // Bullets only: headings and prose are not facts. (Chunks may hold several bullets.)
    for (const b of bullets(d)) {
      const text = dailyFact(b.text);
      const tokens = new Set(contentTokens(text));
      if (tokens.size < 4 || !isFactLike(text, tokens.size)) continue;
      facts.push({ path: d.path, line: b.line, date, text, tokens });
    }
  }
  // Words common across the notes ("team", "memory") do not make two facts the same fact: at least
  // two shared words must be distinctive (in at most max(3, 5 %) of the facts).
  const df = new Map<string, number>();
  for (const f of facts) for (const t of f.tokens) df.set(t, (df.get(t) ?? 0) + 1);
  const rare = Math.max(3, Math.ceil(facts.length * 0.05));
  // Similar facts from different days, as an adjacency list.
  const adj = facts.map(() => new Map<number, number>());
  for (const [a, b] of candidatePairs(facts)) {
    const fa = facts[a]!;
    const fb = facts[b]!;
    if (fa.date === fb.date) continue;
    const { shared, coeff } = overlap(fa.tokens, fb.tokens);
    if (shared.length < 3 || coeff < 0.3) continue;
    if (shared.filter((t) => (df.get(t) ?? 0) <= rare).length < 2) continue;
    adj[a]!.set(b, coeff);
    adj[b]!.set(a, coeff);
  }
  // Star clusters, not transitive closure: the best-connected fact and its direct neighbours form
  // one group, then the next — so a chain A~B~C of loosely related notes is not one "fact".
  const sim = new Map<number, number>();
  adj.forEach((m, i) =>
    sim.set(
      i,
      [...m.values()].reduce((x, y) => x + y, 0),
    ),
  );
  const order = facts
    .map((_, i) => i)
    .filter((i) => adj[i]!.size > 0)
    .sort((x, y) => sim.get(y)! - sim.get(x)! || x - y);
  const taken = new Set<number>();
  const groups = new Map<number, number[]>();
  for (const c of order) {
    if (taken.has(c)) continue;
    const members = [c, ...[...adj[c]!.keys()].filter((j) => !taken.has(j))].sort((x, y) => x - y);
    if (members.length < 2) continue;
    for (const m of members) taken.add(m);
    groups.set(c, members);
  }
  const out: DreamProposal[] = [];
  for (const [rep, members] of groups) {
    const days = new Set(members.map((i) => facts[i]!.date));
    if (days.size < 2) continue;
    const fact = facts[rep]!;
    // Already in long-term memory?
    if (longTerm.some((lt) => overlap(fact.tokens, lt).coeff >= 0.6)) continue;
    // The representative first, then the closest neighbours; at most 12 places.
    const evidence = [
      rep,
      ...members.filter((i) => i !== rep).sort((x, y) => (adj[rep]!.get(y) ?? 0) - (adj[rep]!.get(x) ?? 0) || x - y),
    ]
      .slice(0, 12)
      .map((i) => ({ path: facts[i]!.path, line: facts[i]!.line }))
      .sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
    const common = [...fact.tokens]
      .filter((t) => members.filter((i) => i !== rep).some((i) => facts[i]!.tokens.has(t)))
      .sort();
    out.push({
      id: proposalId('promotion', evidence),
      kind: 'promotion',
      status: 'proposed',
      title: `promote "${titleOf(fact.text).replace(/"/g, "'")}"`,
      evidence,
      why: `repeated on ${days.size} days (${[...days].sort().join(', ')}); shared words: ${common.slice(0, 8).join(', ')}`,
      action: { type: 'append', path: opts.longTermPath, section: opts.section ?? 'Promoted', text: fact.text },
    });
  }
  return out.sort((a, b) => b.evidence.length - a.evidence.length || a.id.localeCompare(b.id));
}

function lineOf(doc: MemoryDoc, pointer: string): number {
  const n = doc.frontMatter?.nodes[pointer];
  return n ? (n.key ?? n.value).start.line + 1 : 1;
}

const isVisibleEntry = (d: MemoryDoc) =>
  d.kind === 'entry' && (d.meta.status === undefined || d.meta.status === 'active') && d.meta.duplicateOf === undefined;
const isActivePlaybook = (d: MemoryDoc) => d.kind === 'playbook' && d.meta.active !== false;

/**
 * Near-duplicate entries (same type) and playbook entries, by the dedupe policy (`opts.repeatOf`): the
 * newer one is marked as a duplicate of the older. Pairs are those sharing a word that is not too
 * common (candidatePairs), so the cost stays below n².
 */
function merges(ws: MemoryWorkspace, opts: DreamOptions): DreamProposal[] {
  const docs = ws.docs().filter((d) => isVisibleEntry(d) || isActivePlaybook(d));
  const items = docs.map((d) => ({
    doc: d,
    tokens: new Set(contentTokens(`${d.meta.title ?? ''} ${bodyOf(d)}`)),
  }));
  const out: DreamProposal[] = [];
  const merged = new Set<string>();
  for (const [a, b] of candidatePairs(items)) {
    const A = items[a]!;
    const B = items[b]!;
    if (A.doc.kind !== B.doc.kind || (A.doc.kind === 'entry' && A.doc.meta.type !== B.doc.meta.type)) continue;
    if (merged.has(A.doc.path) || merged.has(B.doc.path)) continue;
    // Keep the older (by date, then path); the other becomes its duplicate.
    const older =
      (A.doc.meta.date ?? '') < (B.doc.meta.date ?? '') ||
      ((A.doc.meta.date ?? '') === (B.doc.meta.date ?? '') && A.doc.path < B.doc.path)
        ? A
        : B;
    const newer = older === A ? B : A;
    const match = opts.repeatOf(older.doc, newer.doc);
    if (!match) continue;
    const keepId = older.doc.meta.id ?? older.doc.path;
    const dropId = newer.doc.meta.id ?? newer.doc.path;
    const evidence = [
      { path: older.doc.path, line: 1 },
      { path: newer.doc.path, line: 1 },
    ];
    merged.add(newer.doc.path);
    out.push({
      id: proposalId('merge', evidence),
      kind: 'merge',
      status: 'proposed',
      title: `merge ${dropId} into ${keepId}`,
      evidence,
      why: `near-duplicate ${older.doc.kind === 'playbook' ? 'playbook entries' : `${older.doc.meta.type ?? ''} entries`} (${match.reason === 'meaning' ? 'cosine' : 'word similarity'} ${match.similarity.toFixed(2)}); keep the older one`,
      action: { type: 'duplicate', path: newer.doc.path, of: keepId },
    });
  }
  return out;
}

/** Entries superseded but still active, entries whose linked code is all gone, and old unreferenced entries. */
function retirements(ws: MemoryWorkspace, opts: DreamOptions): DreamProposal[] {
  const out: DreamProposal[] = [];
  const docs = ws.docs();
  const proposed = new Set<string>();
  // Superseded: another active entry lists it in `supersedes`.
  for (const d of docs) {
    if (!isVisibleEntry(d)) continue;
    const sup = d.frontMatter?.data?.supersedes;
    const list = Array.isArray(sup) ? sup.map(String) : typeof sup === 'string' ? [sup] : [];
    list.forEach((oldId, i) => {
      for (const old of ws.byId(oldId)) {
        if (!isVisibleEntry(old) || proposed.has(old.path)) continue;
        proposed.add(old.path);
        const evidence = [
          { path: d.path, line: lineOf(d, `/supersedes/${i}`) },
          { path: old.path, line: lineOf(old, '/status') },
        ];
        out.push({
          id: proposalId('retirement', evidence, 'superseded'),
          kind: 'retirement',
          status: 'proposed',
          title: `retire ${oldId} (superseded by ${d.meta.id ?? d.path})`,
          evidence,
          why: `${d.meta.id ?? d.path} supersedes it, but it is still active`,
          action: { type: 'status', path: old.path, status: 'superseded' },
        });
      }
    });
  }
  // Linked code gone.
  if (opts.exists) {
    for (const d of docs) {
      if (!isVisibleEntry(d) || proposed.has(d.path) || d.meta.files.length === 0) continue;
      if (d.meta.files.some((f) => opts.exists!(f.path))) continue;
      proposed.add(d.path);
      const evidence = [{ path: d.path, line: lineOf(d, '/files') }];
      out.push({
        id: proposalId('retirement', evidence, 'files-gone'),
        kind: 'retirement',
        status: 'proposed',
        title: `archive ${d.meta.id ?? d.path} (its code is gone)`,
        evidence,
        why: `none of its linked files exist any more: ${d.meta.files.map((f) => f.path).join(', ')}`,
        action: { type: 'status', path: d.path, status: 'archived' },
      });
    }
  }
  // Stale: old, never updated, nobody links to it or cites it as support.
  const staleDays = opts.staleDays ?? 365;
  if (staleDays > 0) {
    const cited = new Set<string>();
    for (const d of docs) {
      for (const l of d.links) cited.add(l.target.replace(/\.md$/, '').split('/').pop()!);
      const sup = d.frontMatter?.data?.supporting;
      if (Array.isArray(sup)) for (const s of sup) cited.add(String(s));
    }
    const cutoff = new Date(opts.now.getTime() - staleDays * 86_400_000).toISOString().slice(0, 10);
    for (const d of docs) {
      if (!isVisibleEntry(d) || proposed.has(d.path)) continue;
      const updated =
        typeof d.frontMatter?.data?.updated === 'string' ? (d.frontMatter.data.updated as string) : d.meta.date;
      if (!updated || updated.slice(0, 10) >= cutoff) continue;
      const id = d.meta.id ?? '';
      if (cited.has(id)) continue;
      proposed.add(d.path);
      const evidence = [{ path: d.path, line: lineOf(d, d.frontMatter?.nodes['/updated'] ? '/updated' : '/created') }];
      out.push({
        id: proposalId('retirement', evidence, 'stale'),
        kind: 'retirement',
        status: 'proposed',
        title: `archive ${id || d.path} (stale)`,
        evidence,
        why: `last changed ${updated.slice(0, 10)}, more than ${staleDays} days ago, and nothing links to it or cites it`,
        action: { type: 'status', path: d.path, status: 'archived' },
      });
    }
  }
  return out;
}

/**
 * Plan a dream pass: promotions, merges and retirements, each with evidence, minus the ones
 * `existing` proposals already cover (same id, or same kind and evidence files).
 */
export function planDreams(
  ws: MemoryWorkspace,
  opts: DreamOptions,
  existing: readonly DreamProposal[] = [],
): DreamProposal[] {
  const max = opts.maxPerKind ?? 20;
  const all = [
    ...promotions(ws, opts).slice(0, max),
    ...merges(ws, opts).slice(0, max),
    ...retirements(ws, opts).slice(0, max),
  ];
  const ids = new Set(existing.map((p) => p.id));
  const covered = (p: DreamProposal) =>
    existing.some((e) => {
      const kindMatch =
        e.kind === p.kind ||
        (e.action === undefined &&
          e.title
            .toLowerCase()
            .startsWith(p.kind === 'promotion' ? 'promote' : p.kind === 'merge' ? 'merge' : 'retire'));
      if (!kindMatch) return false;
      const files = (ev: readonly Evidence[]) => [...new Set(ev.map((x) => x.path))].sort().join('\0');
      return files(e.evidence) === files(p.evidence);
    });
  return all.filter((p) => !ids.has(p.id) && !covered(p));
}
