// A title from free text for the service's writes (normal forms, slugs and words: core/words.ts;
// token Jaccard is the dedupe policy's, service/shared/dedupe-policy.ts). deps: none.

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
