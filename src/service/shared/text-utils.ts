// Small text helpers for the service: normalisation for dedupe, slugs, titles (token Jaccard is the
// dedupe policy's, service/shared/dedupe-policy.ts). deps: ace (slug).

/** Dedupe normal form (one implementation, shared with ACE): see {@link normalise} in ace/text.ts. */
export { normalise as normaliseForDedupe } from '../../ace/text.js';

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
