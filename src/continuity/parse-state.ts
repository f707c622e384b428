// CURRENT_STATE.md text → sections, the `> Last updated:` line and field values (docs/DESIGN.md §5).
// A line-based reader on purpose: only `#`/`##` ATX headings open sections, so a text line followed
// by `---` (a setext heading to markdown) never splits a section — it is reported instead, and the
// text stays in the section it was written in. Fenced code is skipped. Pure; imports only core.
import { DiagnosticCode, type Severity } from '../core/diagnostics.js';
import {
  canonicalSection,
  FIELD_OF,
  isListField,
  parseTimestamp,
  placeholderKind,
  STATE_SECTIONS,
  STATE_TITLE,
  type StateFields,
  type StateSectionName,
} from './sections.js';

/** One `#`/`##` section of the file. Line numbers are 0-based; `bodyEnd` is exclusive. */
export interface StateSection {
  /** Heading text as written. */
  readonly name: string;
  /** The fixed section it is, or undefined for a section the schema does not know. */
  readonly known: StateSectionName | undefined;
  readonly depth: number;
  readonly headingLine: number;
  readonly bodyStart: number;
  readonly bodyEnd: number;
}

/** A structural problem found while reading (time-independent); see validate-state.ts for the rest. */
export interface StateProblem {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  /** 0-based first and last line of the problem. */
  readonly line: number;
  readonly endLine: number;
  readonly message: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

export interface ParsedState {
  /** Text without BOM, line ends as in the file. */
  readonly text: string;
  readonly hasBom: boolean;
  readonly eol: '\n' | '\r\n';
  /** Lines without their line breaks. */
  readonly lines: readonly string[];
  /** Line of `# Current State`, when present. */
  readonly titleLine: number | undefined;
  /** The `> Last updated:` line: raw value, line, and the parsed date when it is valid ISO-8601 with an offset. */
  readonly updated: { readonly raw: string; readonly line: number; readonly date: Date | undefined } | undefined;
  /** Sections in file order (the title is not one). */
  readonly sections: readonly StateSection[];
  /** Field values, placeholders removed; duplicate sections read together. */
  readonly fields: StateFields;
  /** Known sections whose only content is template prompt text. */
  readonly templateText: readonly StateSectionName[];
  readonly problems: readonly StateProblem[];
}

/** `drop`: a setext underline, read as if absent; `skip`: structure read as a blank line. */
type LineRole = 'content' | 'skip' | 'drop' | 'heading';

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const SETEXT_UNDERLINE = /^ {0,3}(?:=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LAST_UPDATED = /^ {0,3}>[ \t]*Last updated:[ \t]*(.*?)[ \t]*$/i;
const LIST_ITEM = /^( {0,3})(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
const QUOTE = /^ {0,3}>/;

function dominantEol(text: string): '\n' | '\r\n' {
  const crlf = (text.match(/\r\n/g) ?? []).length;
  const lf = (text.match(/\n/g) ?? []).length - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/** Undo the escapes {@link escapeLine} (render-state.ts) adds so values cannot become structure. */
function unescapeLine(line: string): string {
  return line.replace(/^(\s*)\\(?=[#>=\-+*_`~])/, '$1');
}

/** A section while the line pass is reading it: `bodyEnd` is -1 until the next heading closes it. */
interface OpenSection {
  name: string;
  known: StateSectionName | undefined;
  depth: number;
  headingLine: number;
  bodyStart: number;
  bodyEnd: number;
}

/** What the previous line was, for the setext rule: only a plain paragraph line can be underlined. */
type PrevLine = 'blank' | 'para' | 'list' | 'quote' | 'other';

/** State of the line pass of {@link parseState}: each line handler reads and updates it. */
interface LineScan {
  readonly lines: readonly string[];
  readonly roles: LineRole[];
  readonly problems: StateProblem[];
  readonly sections: OpenSection[];
  titleLine: number | undefined;
  updated: ParsedState['updated'];
  /** The opening run of the fenced block being skipped, if any. */
  fence: string | undefined;
  prev: PrevLine;
}

/**
 * Read CURRENT_STATE.md. Never throws: anything unexpected becomes a {@link StateProblem} and the
 * text is mapped to the section it sits in.
 */
export function parseState(input: string): ParsedState {
  const hasBom = input.charCodeAt(0) === 0xfeff;
  const text = hasBom ? input.slice(1) : input;
  const lines = text.split(/\r\n|\r|\n/);
  const scan: LineScan = {
    lines,
    roles: new Array<LineRole>(lines.length).fill('content'),
    problems: [],
    sections: [],
    titleLine: undefined,
    updated: undefined,
    fence: undefined,
    prev: 'blank',
  };
  for (let i = 0; i < lines.length; i++) scanLine(scan, i);
  closeSection(scan.sections, lines.length);
  const bodies = sectionBodies(scan);
  const { values, templateText } = fieldValues(bodies);
  return {
    text,
    hasBom,
    eol: dominantEol(text),
    lines,
    titleLine: scan.titleLine,
    updated: scan.updated,
    sections: scan.sections,
    fields: values as unknown as StateFields,
    templateText,
    problems: scan.problems,
  };
}

/** End the last section, if still open, before line `at`. */
function closeSection(sections: OpenSection[], at: number): void {
  const last = sections[sections.length - 1];
  if (last && last.bodyEnd < 0) last.bodyEnd = at;
}

/** Read line `i`: its role, and the section, title, `Last updated` or problem it makes. */
function scanLine(scan: LineScan, i: number): void {
  const line = scan.lines[i]!;
  if (scan.fence !== undefined) return fenceBodyLine(scan, line);
  const f = FENCE.exec(line);
  if (f) {
    scan.fence = f[1]!;
    scan.prev = 'other';
    return;
  }
  const h = HEADING.exec(line);
  if (h) return headingLine(scan, i, h);
  if (line.trim() === '') {
    scan.prev = 'blank';
    return;
  }
  if (SETEXT_UNDERLINE.test(line) && scan.prev === 'para') return setextUnderline(scan, i);
  if (THEMATIC_BREAK.test(line)) {
    scan.roles[i] = 'skip';
    scan.prev = 'other';
    return;
  }
  const u = LAST_UPDATED.exec(line);
  if (u && scan.updated === undefined) {
    scan.roles[i] = 'skip';
    const raw = u[1]!;
    scan.updated = { raw, line: i, date: parseTimestamp(raw) };
    scan.prev = 'other';
    return;
  }
  if (LIST_ITEM.test(line)) scan.prev = 'list';
  else if (QUOTE.test(line)) scan.prev = 'quote';
  else if (scan.prev !== 'list' && scan.prev !== 'quote') scan.prev = 'para';
}

/** A line inside fenced code: skipped; the closing fence ends the block. */
function fenceBodyLine(scan: LineScan, line: string): void {
  const fence = scan.fence!;
  const m = FENCE.exec(line);
  if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) scan.fence = undefined;
  scan.prev = 'other';
}

/** An ATX heading: `#`/`##` opens a section (or is the `# Current State` title); deeper ones are text. */
function headingLine(scan: LineScan, i: number, h: RegExpExecArray): void {
  const depth = h[1]!.length;
  const name = (h[2] ?? '').replace(/(?:^|[ \t]+)#+$/, '').trim();
  if (depth <= 2) {
    scan.roles[i] = 'heading';
    closeSection(scan.sections, i);
    if (
      depth === 1 &&
      scan.titleLine === undefined &&
      scan.sections.length === 0 &&
      name.toLowerCase() === STATE_TITLE.toLowerCase()
    ) {
      scan.titleLine = i;
    } else {
      scan.sections.push({
        name,
        known: depth === 2 ? canonicalSection(name) : undefined,
        depth,
        headingLine: i,
        bodyStart: i + 1,
        bodyEnd: -1,
      });
    }
  }
  scan.prev = 'other';
}

/**
 * A setext underline under a paragraph line. Markdown would turn the line above into a heading and
 * end the section there. We keep the text where it is and report the underline, which carries no content.
 */
function setextUnderline(scan: LineScan, i: number): void {
  const { lines } = scan;
  const line = lines[i]!;
  scan.roles[i] = 'drop';
  scan.problems.push({
    code: DiagnosticCode.stateSetextHeading,
    severity: 'warning',
    line: i - 1,
    endLine: i,
    message: `"${lines[i - 1]!.trim()}" followed by "${line.trim()}" is a setext heading in markdown and would split its section; gitmem reads it as text of the section — remove the underline or add a blank line above it`,
    data: { underline: line.trim() },
  });
  scan.prev = 'other';
}

/**
 * Body lines of each known section, duplicates read together (a dropped underline is `null`, a
 * skipped line `''`); unknown and duplicate sections are reported in `scan.problems`.
 */
function sectionBodies(scan: LineScan): Map<StateSectionName, (string | null)[][]> {
  const { lines, roles, problems } = scan;
  const bodies = new Map<StateSectionName, (string | null)[][]>();
  const seen = new Set<StateSectionName>();
  for (const s of scan.sections) {
    if (!s.known) {
      problems.push({
        code: DiagnosticCode.stateUnknownSection,
        severity: 'information',
        line: s.headingLine,
        endLine: s.headingLine,
        message: `"${s.name}" is not one of the CURRENT_STATE sections (${STATE_SECTIONS.join(', ')}); it is kept but not read`,
        data: { section: s.name },
      });
      continue;
    }
    if (seen.has(s.known)) {
      problems.push({
        code: DiagnosticCode.stateDuplicateSection,
        severity: 'warning',
        line: s.headingLine,
        endLine: s.headingLine,
        message: `section "${s.known}" appears more than once; their contents are read together`,
        data: { section: s.known },
      });
    }
    seen.add(s.known);
    const body: (string | null)[] = [];
    for (let l = s.bodyStart; l < s.bodyEnd; l++)
      body.push(roles[l] === 'content' ? lines[l]! : roles[l] === 'drop' ? null : '');
    const list = bodies.get(s.known) ?? [];
    list.push(body);
    bodies.set(s.known, list);
  }
  return bodies;
}

/** Field values of every section (placeholders removed) and the sections holding only template text. */
function fieldValues(bodies: Map<StateSectionName, (string | null)[][]>): {
  values: Record<string, string | string[]>;
  templateText: StateSectionName[];
} {
  const values: Record<string, string | string[]> = {};
  const templateText: StateSectionName[] = [];
  for (const name of STATE_SECTIONS) {
    const field = FIELD_OF[name];
    const chunks = bodies.get(name) ?? [];
    const read = isListField(field) ? listValue(chunks) : scalarValue(chunks);
    values[field] = read.value;
    if (read.template) templateText.push(name);
  }
  return { values, templateText };
}

/** A list section's items; `template` when it holds only template prompts (or comments). */
function listValue(chunks: readonly (string | null)[][]): { value: string[]; template: boolean } {
  const items: string[] = [];
  let sawTemplate = false;
  for (const body of chunks) {
    // In a list section a dropped underline separates items, as the heading it would be did.
    for (const item of listItems(body.map((l) => l ?? ''))) {
      const kind = placeholderKind(item);
      if (kind === 'template') sawTemplate = true;
      if (kind === undefined) items.push(item);
    }
  }
  const template = (sawTemplate || chunks.some((b) => b.some((l) => l?.includes('<!--')))) && items.length === 0;
  return { value: items, template };
}

/** A text section's value (`''` for a placeholder); `template` when it is a template prompt. */
function scalarValue(chunks: readonly (string | null)[][]): { value: string; template: boolean } {
  const joined = chunks
    .map((b) => scalarText(b.filter((l): l is string => l !== null)))
    .filter((t) => t !== '')
    .join('\n\n');
  // Comment-only text (`<!-- what are we doing? -->`) is a template prompt too.
  const commentOnly = joined === '' && chunks.some((b) => b.some((l) => l !== null && l.trim() !== ''));
  const kind = commentOnly ? 'template' : placeholderKind(joined);
  return { value: kind === undefined ? joined : '', template: kind === 'template' };
}

/** Strip HTML comments (template hints), unescape, trim surrounding blank lines. */
function scalarText(body: readonly string[]): string {
  const joined = body.join('\n').replace(/<!--[\s\S]*?-->/g, '');
  const ls = joined.split('\n').map((l) => unescapeLine(l.replace(/[ \t]+$/, '')));
  while (ls.length && ls[0]!.trim() === '') ls.shift();
  while (ls.length && ls[ls.length - 1]!.trim() === '') ls.pop();
  // Keep the text as written, but one blank line at most between paragraphs.
  return ls.join('\n').replace(/\n{3,}/g, '\n\n');
}

/**
 * Items of a list section: each top-level bullet (with its continuation lines) is one item; a plain
 * paragraph outside any bullet is an item too (people write `Waiting for the API key` under Blockers).
 */
function listItems(body: readonly string[]): string[] {
  const joined = body.join('\n').replace(/<!--[\s\S]*?-->/g, '');
  const items: string[] = [];
  let cur: string[] | undefined;
  /** Indent of the current bullet's marker; undefined while the current item is a plain paragraph. */
  let baseIndent: number | undefined;
  let contentIndent = 0;
  let blank = false;
  const flush = () => {
    const t = cur?.join('\n').trim();
    if (t) items.push(t);
    cur = undefined;
  };
  for (const rawLine of joined.split('\n')) {
    const line = rawLine.replace(/[ \t]+$/, '');
    if (line.trim() === '') {
      blank = true;
      continue;
    }
    const m = LIST_ITEM.exec(line);
    const indent = line.length - line.trimStart().length;
    const afterBlank = blank;
    blank = false;
    if (m && (!cur || baseIndent === undefined || indent <= baseIndent + 1)) {
      flush();
      baseIndent = indent;
      contentIndent = m[0].length;
      cur = [unescapeLine(line.slice(m[0].length))];
      continue;
    }
    if (cur && baseIndent !== undefined) {
      if (indent >= Math.min(contentIndent, baseIndent + 2)) {
        // Nested bullet or indented continuation: part of this item.
        cur.push(unescapeLine(line.slice(Math.min(indent, contentIndent))));
        continue;
      }
      if (!afterBlank) {
        // Lazy continuation of the bullet's paragraph (markdown soft wrap).
        cur.push(unescapeLine(line.trim()));
        continue;
      }
    }
    if (cur && baseIndent === undefined && !afterBlank) {
      cur.push(unescapeLine(line.trim()));
      continue;
    }
    flush();
    baseIndent = undefined;
    cur = [unescapeLine(line.trim())];
  }
  flush();
  return items;
}
