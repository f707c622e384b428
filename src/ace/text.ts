// Small deterministic text helpers for the ACE planners: sentence splitting, content tokens (over the
// one tokenizer's words, core/tokenize.ts, and the shared stemmer, core/words.ts), shared tokens and titles. Pure; imports only core. (Whether two texts repeat each
// other is the dedupe policy's question, service/shared/dedupe-policy.ts, not a rule of the planners.)

import { wordTokens as words } from '../core/tokenize.js';
import { stemWord as stem } from '../core/words.js';

const STOP = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto over under as is are was were be been being ' +
    'it its this that these those there here we our us you your they them their he she his her i me my mine not no so ' +
    'do does did done doing have has had having can could should would will shall may might must just also than too very ' +
    'about after before again all any both each few more most other some such only own same up down out off once what when ' +
    'where which while who whom why how because until against between through during above below now get got use used using ' +
    'make made one two new via per'
  ).split(' '),
);

/** Content tokens: words minus stop words and pure numbers, stemmed; order kept, duplicates kept. */
export function contentTokens(text: string): string[] {
  const out: string[] = [];
  for (const w of words(text)) {
    if (STOP.has(w) || /^\d+$/.test(w) || w.length < 2) continue;
    out.push(stem(w));
  }
  return out;
}

/** Shared content tokens of `a` and `b`, sorted. */
export function sharedTokens(a: string | readonly string[], b: string | readonly string[]): string[] {
  const A = new Set(typeof a === 'string' ? contentTokens(a) : a);
  const B = new Set(typeof b === 'string' ? contentTokens(b) : b);
  return [...A].filter((t) => B.has(t)).sort();
}

/** Split prose into sentences (keeps code spans intact enough for rules). */
export function sentences(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n|\n(?=\s*[-*] )|(?<=[.!?;])\s+(?=[A-Z`"'(])/)
    .map((s) =>
      s
        .replace(/^\s*[-*]\s+/, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((s) => s.length > 0);
}

/** A short title: the first sentence or 12 words, at most 80 characters, no trailing full stop. */
export function titleOf(text: string): string {
  let first = (text.trim().split(/\r?\n/)[0] ?? '').split(/(?<=[.!?。！？])\s/)[0]!.trim();
  // A clause is a better title than a cut-off sentence.
  if (first.split(/\s+/).length > 12) first = first.split(/;\s|\s[—–-]\s|:\s/)[0]!.trim();
  let t = first.split(/\s+/).slice(0, 12).join(' ');
  if ([...t].length > 80) t = `${[...t].slice(0, 79).join('')}…`;
  return t.replace(/[.。:;,]$/, '');
}

/** FNV-1a 32-bit hash as 8 hex digits: short deterministic ids without node:crypto. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}
