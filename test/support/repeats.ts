// The texts and entry files of the tests of the one dedupe policy's rule by meaning (issue #18,
// service/shared/dedupe-policy.ts): two decisions that say the same thing in other words, and an
// entry file with full front matter.

/** Ann's decision. */
export const ANN = 'The payments service retries failed webhooks three times before giving up';
/**
 * Ben's reworded copy of {@link ANN}: too few shared words for the rule by text (dedupe.jaccard), a
 * repeat by meaning with the shipped model (cosine at least 0.95).
 */
export const BEN = 'The payments service retries any failed webhook three times before giving up';

/**
 * An entry file: id, type (decision unless told), title (its text), no tags, created, status active,
 * then the `extra` front-matter lines; its body is the text.
 */
export function entryFile(
  id: string,
  created: string,
  text: string,
  opts: { type?: string; extra?: string } = {},
): string {
  return `---\nid: ${id}\ntype: ${opts.type ?? 'decision'}\ntitle: ${text}\ntags: []\ncreated: ${created}\nstatus: active\n${opts.extra ?? ''}---\n\n${text}\n`;
}
