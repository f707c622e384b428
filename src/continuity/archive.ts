// The reset boundary's archive (docs/DESIGN.md §5 `state new`): the outgoing working state as a block
// appended to today's daily note, every unsurfaced result included. Append-only: the note's existing
// text is kept byte-for-byte (line ending and BOM included). Pure; imports only core.
import { escapeLine } from './render-state.js';
import type { StateFields } from './sections.js';

export interface ArchiveOptions {
  /** Local `HH:MM` of the archive. */
  readonly time: string;
  /** The outgoing `> Last updated:` value, when known. */
  readonly updated: string | null;
  /** Why it was archived (`gitmem state new`, `end of run`, …). */
  readonly reason: string;
  /** Sections the schema does not know (`## Notes`), kept so a reset drops nothing. */
  readonly extras?: readonly { readonly heading: string; readonly lines: readonly string[] }[];
}

function valueLines(label: string, value: string): string[] {
  const [first = '', ...rest] = value.split('\n');
  return [`- ${label}: ${first}`, ...rest.map((l) => (l.trim() ? `  ${escapeLine(l)}` : ''))].filter(
    (l, i, a) => !(l === '' && a[i - 1] === ''),
  );
}

function listLines(label: string, items: readonly string[]): string[] {
  if (items.length === 0) return [];
  return [
    `- ${label}:`,
    ...items.flatMap((item) => {
      const [first = '', ...rest] = item.split('\n');
      return [`  - ${escapeLine(first)}`, ...rest.filter((l) => l.trim()).map((l) => `    ${escapeLine(l)}`)];
    }),
  ];
}

/** @returns the archive block's lines (a `##` section, so recall shows it under its own heading). */
export function archiveBlock(fields: StateFields, options: ArchiveOptions): string[] {
  return [
    `## ${options.time} Working state archived`,
    '',
    `> ${options.reason}${options.updated ? `; last updated ${options.updated}` : ''}`,
    '',
    ...(fields.objective ? valueLines('Objective', fields.objective) : ['- Objective: None']),
    ...(fields.step ? valueLines('Current step', fields.step) : []),
    ...listLines('Key decisions', fields.decisions),
    ...(fields.next ? valueLines('Next action', fields.next) : []),
    ...listLines('Blockers', fields.blockers),
    ...listLines('Unsurfaced results (not yet reported to the user)', fields.results),
    ...(options.extras ?? []).flatMap((x) => {
      const body = x.lines.filter((l) => l.trim() !== '');
      return body.length ? [`- ${x.heading}:`, ...body.map((l) => `  ${escapeLine(l)}`)] : [];
    }),
  ];
}

/**
 * Append `block` to a daily note. @returns the new text: `existing` unchanged followed by a blank line
 * and the block, or a new note (`# <date>`) when `existing` is undefined or empty.
 */
export function appendToDaily(existing: string | undefined, date: string, block: readonly string[]): string {
  if (existing === undefined || existing.replace(/^\uFEFF/, '').trim() === '') {
    const bom = existing?.startsWith('\uFEFF') ? '\uFEFF' : '';
    return `${bom}${[`# ${date}`, '', ...block].join('\n')}\n`;
  }
  const body = existing.replace(/^\uFEFF/, '');
  const crlf = (body.match(/\r\n/g) ?? []).length;
  const eol = crlf > (body.match(/\n/g) ?? []).length - crlf ? '\r\n' : '\n';
  const endsWithBreak = /(?:\r\n|\n|\r)$/.test(existing);
  const endsWithBlank = /(?:\r\n|\n|\r)[ \t]*(?:\r\n|\n|\r)$/.test(existing);
  // Existing text is never rewritten: only a separator (so the block starts after a blank line) and the block follow it.
  const sep = !endsWithBreak ? `${eol}${eol}` : endsWithBlank ? '' : eol;
  return `${existing}${sep}${block.join(eol)}${eol}`;
}
