// The paranoid check of the live keyword index: compare it with an index built from scratch over
// the files just read from disk (file set and hashes, every chunk record, keyword answers on a
// query set derived from the vocabulary).
// deps: indexes (lexical, tokenize), engine (chunk-table, index-manager, live-index-types).
import { LexicalIndex, type LexicalHit } from '../../indexes/lexical/lexical.js';
import { tokenize } from '../../core/tokenize.js';
import { byPath } from './chunk-table.js';
import { lexicalDoc, type ChunkRecord, type IndexSnapshot } from '../chunks/index-manager.js';
import type { FileState } from './live-index-types.js';

/**
 * Compare the live index (`indexed` files, `snapshot`) with one built from scratch over `files`
 * (the truth just read from disk). @returns human-readable differences (empty = identical).
 */
export function verifyIndex(
  indexed: ReadonlyMap<string, FileState>,
  snapshot: IndexSnapshot,
  files: ReadonlyMap<string, FileState>,
  options: { queries?: readonly string[]; maxQueries?: number } = {},
): { differences: string[]; queries: number } {
  const diffs: string[] = [];
  const say = (s: string) => {
    if (diffs.length < 50) diffs.push(s);
  };
  for (const [p, f] of files) {
    const mine = indexed.get(p);
    if (!mine) say(`missing file ${p}`);
    else if (mine.hash !== f.hash) say(`stale file ${p}`);
  }
  for (const p of indexed.keys()) if (!files.has(p)) say(`deleted file still indexed: ${p}`);
  const truth: ChunkRecord[] = [];
  for (const p of [...files.keys()].sort(byPath)) truth.push(...files.get(p)!.records);
  const chunks = snapshot.chunks;
  if (chunks.size !== truth.length) say(`chunk count ${chunks.size}, rebuild has ${truth.length}`);
  for (const r of truth) {
    const mine = chunks.get(r.id);
    if (!mine) say(`missing chunk ${r.id}`);
    else if (JSON.stringify(mine) !== JSON.stringify(r)) say(`chunk ${r.id} differs`);
  }
  const full = LexicalIndex.build(truth.map(lexicalDoc), { lunr: false });
  const queries = options.queries ?? queryProbe(truth, options.maxQueries ?? 60);
  const lexical = snapshot.lexical;
  if (lexical.size !== full.size) say(`keyword index holds ${lexical.size} chunks, rebuild ${full.size}`);
  for (const q of queries) {
    const a = lexical.search(q);
    const b = full.search(q);
    if (!sameHits(a, b)) say(`query ${JSON.stringify(q)}: incremental ${brief(a)} vs rebuild ${brief(b)}`);
  }
  return { differences: diffs, queries: queries.length };
}

function sameHits(a: readonly LexicalHit[], b: readonly LexicalHit[]): boolean {
  return a.length === b.length && a.every((h, i) => h.ref === b[i]!.ref && h.score === b[i]!.score);
}

function brief(h: readonly LexicalHit[]): string {
  return `[${h
    .slice(0, 3)
    .map((x) => `${x.ref}:${x.score.toFixed(4)}`)
    .join(', ')}${h.length > 3 ? `, … ${h.length}` : ''}]`;
}

/**
 * A deterministic query set over the vocabulary of `records`: frequent and rare single words,
 * prefixes, pairs, a required and a prohibited term.
 */
export function queryProbe(records: readonly ChunkRecord[], max: number): string[] {
  const counts = new Map<string, number>();
  for (const r of records)
    for (const t of tokenize(r.text)) if (/^[\p{L}\p{N}]{3,}$/u.test(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const words = [...counts.entries()].sort((a, b) => b[1] - a[1] || byPath(a[0], b[0])).map(([w]) => w);
  if (words.length === 0) return ['memory'];
  const pick = (i: number) => words[Math.floor((i * 7919) % words.length)]!;
  const out = new Set<string>();
  for (let i = 0; i < Math.min(10, words.length); i++) out.add(words[i]!);
  for (let i = 0; out.size < max && i < max * 3; i++) {
    const w = pick(i);
    switch (i % 5) {
      case 0:
        out.add(w);
        break;
      case 1:
        out.add(`${w.slice(0, 3)}*`);
        break;
      case 2:
        out.add(`${w} ${pick(i + 1)}`);
        break;
      case 3:
        out.add(`+${w} ${pick(i + 2)}`);
        break;
      default:
        out.add(`${pick(i + 3)} -${w}`);
    }
  }
  return [...out].slice(0, max);
}
