// Field updates and CURRENT_STATE.md rendering. Rewrites only the sections whose values changed and
// the `> Last updated:` line; everything else (unknown sections, comments, untouched sections) stays
// byte-for-byte, with the file's line ending and BOM. Pure; imports only core.
import { writtenText } from '../core/text.js';
import type { ParsedState } from './parse-state.js';
import {
  EMPTY_FIELDS,
  FIELD_OF,
  isListField,
  isPlaceholder,
  itemKey,
  LIST_FIELDS,
  SCALAR_FIELDS,
  STATE_SECTIONS,
  STATE_TITLE,
  type ListField,
  type StateField,
  type StateFields,
  type StateSectionName,
} from './sections.js';

/**
 * A change to the working state. Scalars replace (a placeholder such as `None` or `idle` clears);
 * list values are appended unless already present (case/spacing-insensitive); `clear` empties the
 * named lists first, so `{clear: ['blockers'], blockers: ['x']}` replaces the blockers.
 */
export interface StateUpdate {
  readonly objective?: string;
  readonly step?: string;
  readonly next?: string;
  readonly decisions?: readonly string[];
  readonly blockers?: readonly string[];
  readonly results?: readonly string[];
  readonly clear?: readonly ListField[];
}

/** @returns the fields after `update` (see {@link StateUpdate} for the rules). */
export function applyStateUpdate(fields: StateFields, update: StateUpdate): StateFields {
  const out: Record<string, string | readonly string[]> = { ...fields };
  for (const f of SCALAR_FIELDS) {
    const v = update[f];
    if (v === undefined) continue;
    const t = normaliseValue(v);
    out[f] = isPlaceholder(t) ? '' : t;
  }
  for (const f of LIST_FIELDS) {
    let items = update.clear?.includes(f) ? [] : [...(out[f] as readonly string[])];
    const add = update[f];
    if (add) {
      const keys = new Set(items.map(itemKey));
      for (const raw of add) {
        const t = normaliseValue(raw);
        if (!t || isPlaceholder(t)) continue;
        const k = itemKey(t);
        if (keys.has(k)) continue;
        keys.add(k);
        items = [...items, t];
      }
    }
    out[f] = items;
  }
  return out as unknown as StateFields;
}

function normaliseValue(v: string): string {
  return writtenText(v)
    .replace(/[ \t]+$/gm, '')
    .trim();
}

/** @returns the fields whose values differ (list items compared case/spacing-insensitively, in order). */
export function changedFields(a: StateFields, b: StateFields): StateField[] {
  const out: StateField[] = [];
  for (const name of STATE_SECTIONS) {
    const f = FIELD_OF[name];
    if (isListField(f)) {
      const x = a[f].map(itemKey);
      const y = b[f].map(itemKey);
      if (x.length !== y.length || x.some((k, i) => k !== y[i])) out.push(f);
    } else if (normaliseValue(a[f]) !== normaliseValue(b[f])) out.push(f);
  }
  return out;
}

/**
 * Escape a value line that markdown (or our reader) would take as structure: ATX headings, a
 * `> Last updated:`-like quote, setext underlines and thematic breaks, code fences.
 */
export function escapeLine(line: string): string {
  return /^\s*(?:#{1,6}(?:\s|$)|>|[-=]+\s*$|[-*_](?:[ \t]*[-*_]){2,}\s*$|`{3,}|~{3,})/.test(line)
    ? line.replace(/^(\s*)/, '$1\\')
    : line;
}

/** Body lines of one section for `fields` (no surrounding blank lines). */
function sectionBody(name: StateSectionName, fields: StateFields): string[] {
  const f = FIELD_OF[name];
  if (isListField(f)) {
    const items = fields[f];
    if (items.length === 0) return f === 'decisions' ? [] : ['None'];
    return items.flatMap((item) => {
      const [first = '', ...rest] = item.split('\n');
      return [`- ${escapeLine(first)}`, ...rest.map((l) => (l.trim() ? `  ${escapeLine(l)}` : ''))];
    });
  }
  const v = fields[f];
  return v ? v.split('\n').map(escapeLine) : ['None'];
}

/** A fresh CURRENT_STATE.md for `fields` (LF, no BOM), in the template's shape. */
export function renderFreshState(fields: StateFields, updated: string): string {
  const out = [`# ${STATE_TITLE}`, '', `> Last updated: ${updated}`, ''];
  for (const name of STATE_SECTIONS) {
    out.push(`## ${name}`, '');
    const body = sectionBody(name, fields);
    if (body.length) out.push(...body, '');
  }
  return `${out.join('\n')}`;
}

/**
 * Render `parsed` with new `fields` and a new `> Last updated:` value. Sections whose values did not
 * change keep their text exactly; changed ones are rewritten (duplicates of a rewritten section are
 * dropped: their content was read into the value); missing sections are added in canonical position;
 * the title and the timestamp line are added when missing. Line ending and BOM follow the file.
 */
export function renderState(parsed: ParsedState, fields: StateFields, updated: string): string {
  const lines = parsed.lines;
  const changed = new Set(changedFields(parsed.fields, fields));
  const stampLine = `> Last updated: ${updated}`;
  const firstSection = parsed.sections[0]?.headingLine ?? lines.length;
  const stampInHead = parsed.updated !== undefined && parsed.updated.line < firstSection;

  // Head: everything before the first section.
  const head: string[] = [];
  for (let i = 0; i < firstSection; i++) head.push(stampInHead && i === parsed.updated!.line ? stampLine : lines[i]!);
  while (head.length && head[head.length - 1]!.trim() === '') head.pop();
  if (parsed.titleLine === undefined || parsed.titleLine >= firstSection) head.unshift(`# ${STATE_TITLE}`, '');
  if (!stampInHead) {
    const t = head.findIndex((l) => /^ {0,3}#[ \t]/.test(l));
    head.splice(t + 1, 0, '', stampLine);
  }
  const out = [...head.filter((l, i, a) => !(l.trim() === '' && i > 0 && a[i - 1]!.trim() === '')), ''];

  // Blocks in file order, then missing known sections inserted where they belong.
  type Block = { known: StateSectionName | undefined; heading: string; body: string[] | 'render' };
  const blocks: Block[] = [];
  const done = new Set<StateSectionName>();
  for (const s of parsed.sections) {
    const heading = lines[s.headingLine]!;
    if (s.known && changed.has(FIELD_OF[s.known])) {
      if (done.has(s.known)) continue;
      blocks.push({ known: s.known, heading, body: 'render' });
    } else {
      const body: string[] = [];
      for (let l = s.bodyStart; l < s.bodyEnd; l++)
        if (!(parsed.updated && l === parsed.updated.line)) body.push(lines[l]!);
      blocks.push({ known: s.known, heading, body });
    }
    if (s.known) done.add(s.known);
  }
  const rank = (n: StateSectionName) => STATE_SECTIONS.indexOf(n);
  for (const name of STATE_SECTIONS) {
    if (done.has(name)) continue;
    let at = blocks.length;
    const before = blocks.findIndex((b) => b.known !== undefined && rank(b.known) > rank(name));
    if (before >= 0) at = before;
    blocks.splice(at, 0, { known: name, heading: `## ${name}`, body: 'render' });
    done.add(name);
  }

  for (const b of blocks) {
    if (out.length && out[out.length - 1]!.trim() !== '') out.push('');
    out.push(b.heading);
    if (b.body === 'render') {
      const body = sectionBody(b.known!, fields);
      out.push('');
      if (body.length) out.push(...body, '');
    } else out.push(...b.body);
  }
  while (out.length && out[out.length - 1]!.trim() === '') out.pop();
  const text = `${out.join(parsed.eol)}${parsed.eol}`;
  return parsed.hasBom ? `\uFEFF${text}` : text;
}

/** @returns true when the state has work in it: an objective that is not a placeholder. */
export function isActive(fields: StateFields): boolean {
  return fields.objective.trim() !== '';
}

/** @returns true when any field has content (an idle state can still hold unsurfaced results). */
export function hasContent(fields: StateFields): boolean {
  return changedFields(EMPTY_FIELDS, fields).length > 0;
}
