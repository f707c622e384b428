// Findings about user content: typed data with stable codes, never exceptions.
// Imports only core.
import type { RelPath } from './paths.js';
import { maskName } from './secret-mask.js';
import type { Range } from './position.js';

/** Severity, as in LSP (mapped to numbers only in server/convert.ts). */
export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** Stable diagnostic codes; the rule id is the code. Tests assert these. */
export const DiagnosticCode = {
  /** Front-matter YAML does not parse. */
  invalidYaml: 'memory.front-matter.invalid-yaml',
  /** Front-matter declared in another language (`---js`, `---toml`, …); never evaluated. */
  unsupportedLanguage: 'memory.front-matter.unsupported-language',
  /** A `---` block opened on line 1 and never closed; the text is kept as body. */
  unclosedFrontMatter: 'memory.front-matter.unclosed',
  /** Front-matter parsed but is not a mapping (a list, a scalar). */
  frontMatterNotObject: 'memory.front-matter.not-object',
  /** A required front-matter field is missing. */
  missingField: 'memory.schema.required',
  /** A front-matter value has the wrong type or is outside its enum. */
  invalidValue: 'memory.schema.invalid-value',
  /** A front-matter key that the schema does not know. */
  unknownField: 'memory.schema.unknown-field',
  /** A date field that is neither a YAML date nor an ISO-8601 string. */
  invalidDate: 'memory.schema.invalid-date',
  /** Two documents declare the same entry id. */
  duplicateId: 'memory.entry.duplicate-id',
  /** An entry or playbook id that no `[[…]]` link can name (a line break, bracket, `|`, `#`, control character, only spaces). */
  unlinkableId: 'memory.entry.unlinkable-id',
  /** A `[[wiki-link]]` or relative markdown link that resolves to nothing. */
  unresolvedLink: 'memory.link.unresolved',
  /** File above the configured size cap; skipped by the index. */
  fileTooLarge: 'memory.file.too-large',
  /** File is binary (NUL bytes) though named .md; skipped. */
  binaryFile: 'memory.file.binary',
  /** A memory-named path that is there but cannot be read as a file (FIFO, socket, device, broken link, read error); skipped. */
  fileUnreadable: 'memory.file.unreadable',
  /** Two memory paths that are the same name in another Unicode normal form (NFC and NFD): one name to git on macOS, two files here. */
  sameNameForms: 'memory.file.same-name-forms',
  /** File is not valid UTF-8; decoded with replacement characters. */
  invalidUtf8: 'memory.file.invalid-utf8',
  /** A suspected credential (private key, token, high-entropy secret assignment) in memory text. */
  suspectedSecret: 'memory.secret.suspected',
  /** A line that addresses the assistant with instructions, or hides characters (core/injection.ts): memory is data, never obeyed. */
  injectionSuspect: 'memory.injection.suspect',
  /** A memory file still holds the <<<<<<< / ======= / >>>>>>> markers of an unresolved git merge. */
  conflictMarkers: 'memory.merge.conflict-markers',
  /** gitmem.config.json does not validate. */
  invalidConfig: 'memory.config.invalid',
  /** A daily note whose name or heading date is not a real date. */
  invalidDailyDate: 'memory.daily.invalid-date',
  /** The parser failed internally on this file; it is kept with no chunks, links or headings. */
  parseFailed: 'memory.parse.failed',
  /** An entry repeats another entry of the same type (token Jaccard ≥ dedupe.jaccard); reported by the editor for open files. */
  nearDuplicate: 'memory.entry.near-duplicate',
  /** `supersedes:` names an id that no entry or playbook entry has. */
  supersedesUnknown: 'memory.entry.supersession.unknown-id',
  /** Entries supersede each other in a cycle (a → b → … → a): none of them would be current. */
  supersessionCycle: 'memory.entry.supersession.cycle',
  /** An entry's `valid_until` or `review_after` date has passed (a hint: confirm, update or supersede). */
  expired: 'memory.entry.expired',
  /** With a tag catalogue (tags.md), a tag it does not list (a hint). */
  unknownTag: 'memory.tag.unknown',
  /** A new entry says something different from a near match on the same subject (same type and tags). */
  possibleConflict: 'memory.entry.possible-conflict',
  /** An always-loaded file (MEMORY.md) is longer than `load.maxLines` / `load.maxBytes`: a host cuts it there. */
  overLoadBudget: 'memory.load.over-budget',
  /** CURRENT_STATE.md lacks one of the fixed sections (or the `# Current State` title). */
  stateMissingSection: 'memory.state.missing-section',
  /** CURRENT_STATE.md has the same section twice; their contents are read together. */
  stateDuplicateSection: 'memory.state.duplicate-section',
  /** CURRENT_STATE.md has a `##` section the schema does not know; it is kept as is. */
  stateUnknownSection: 'memory.state.unknown-section',
  /** The active working state was last updated longer ago than `state.staleAfterHours`. */
  stateStale: 'memory.state.stale',
  /** Placeholder or template text where real content is expected (or content under a placeholder objective). */
  statePlaceholder: 'memory.state.placeholder',
  /** A text line followed by `---`/`===` (a setext heading in markdown); gitmem keeps it in its section. */
  stateSetextHeading: 'memory.state.setext-heading',
  /** The `> Last updated:` value is not an ISO-8601 date-time with an offset. */
  stateBadTimestamp: 'memory.state.bad-timestamp',
  /** CURRENT_STATE.md has no `> Last updated:` line. */
  stateMissingTimestamp: 'memory.state.missing-timestamp',
  /** A memory folder is a symbolic link: git records the link, not the memory behind it (checkpoint refuses). */
  linkedFolder: 'memory.git.linked-folder',
  /** Code a memory cites is gone, changed since, or no longer defines a cited name (the editor, for open documents). */
  codeStale: 'memory.code.stale',
  /** A front-matter `verified:` the code check ignores: a day after tomorrow (UTC), or a value that is not a date. */
  verifiedDate: 'memory.code.verified-date',
} as const;

export type DiagnosticCode = (typeof DiagnosticCode)[keyof typeof DiagnosticCode];

/** One finding about one file. `range` is 0-based with UTF-16 columns (LSP-shaped). */
export interface Diagnostic {
  readonly path: RelPath;
  readonly range: Range;
  readonly severity: Severity;
  readonly code: DiagnosticCode;
  readonly message: string;
  readonly data?: Readonly<Record<string, unknown>>;
}

/** Sort by path, then position, then code (stable output for CLI and tests). */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  if (a.path !== b.path) return a.path < b.path ? -1 : 1;
  if (a.range.start.line !== b.range.start.line) return a.range.start.line - b.range.start.line;
  if (a.range.start.character !== b.range.start.character) return a.range.start.character - b.range.start.character;
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}

/** A diagnostic as gitmem prints it for machines (`validate --json`, `state validate --json`, MCP `memory_validate`). */
export type ReportedDiagnostic = Pick<Diagnostic, 'path' | 'range' | 'severity' | 'code' | 'message'>;

/** @returns `{ diagnostics }` with exactly path, range, severity, code and message of each (no `data`). */
export function diagnosticReport(diags: readonly Diagnostic[]): { diagnostics: ReportedDiagnostic[] } {
  return {
    // The path as every name is shown (R144): a file named after a token is masked.
    diagnostics: diags.map(({ path, range, severity, code, message }) => ({
      path: maskName(path) as RelPath,
      range,
      severity,
      code,
      message,
    })),
  };
}
