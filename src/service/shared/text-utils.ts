// Small text helpers for the service: normalisation for dedupe, token Jaccard, slugs.
// deps: core, indexes (tokenizer).
import { tokenize } from '../../indexes/tokenize.js';

/** Dedupe normal form (docs/DESIGN.md §3): trim, lowercase, collapse whitespace, drop trailing punctuation. */
export function normaliseForDedupe(text: string): string {
  return text
    .normalize('NFC')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\p{P}\s]+$/u, '');
}

/** Jaccard similarity of the token sets of `a` and `b` (1 when both are empty). */
export function tokenJaccard(a: string, b: string): number {
  const A = new Set(tokenize(a));
  const B = new Set(tokenize(b));
  if (A.size === 0 && B.size === 0) return 1;
  let inter = 0;
  for (const t of A) if (B.has(t)) inter++;
  return inter / (A.size + B.size - inter);
}

/** A file-name slug (one implementation, shared with ACE): see {@link slug} in ace/text.ts. */
export { slug as slugify } from '../../ace/text.js';

/** A short title from free text: the first sentence or ~8 words, at most 80 characters. */
export function titleFrom(text: string): string {
  const first = text
    .trim()
    .split(/\r?\n/)[0]!
    .split(/(?<=[.!?。！？])\s/)[0]!
    .trim();
  const words = first.split(/\s+/);
  let t = words.slice(0, 12).join(' ');
  if ([...t].length > 80) t = `${[...t].slice(0, 79).join('')}…`;
  return t.replace(/[.。]$/, '');
}
