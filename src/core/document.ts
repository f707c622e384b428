// The parsed-document value shared by every layer: MemoryDoc, its chunks, headings, links and
// front-matter with exact ranges. Produced by parse/, consumed by validate/ and indexes/.
// Imports only core.
import type { Diagnostic } from './diagnostics.js';
import type { RelPath } from './paths.js';
import { LineIndex, type Range } from './position.js';

/** What a file is, decided by the layout (see core/layout.ts). */
export type DocKind = 'long_term' | 'dreams' | 'current_state' | 'daily' | 'entry' | 'playbook' | 'note';

export const DOC_KINDS: readonly DocKind[] = [
  'long_term',
  'dreams',
  'current_state',
  'daily',
  'entry',
  'playbook',
  'note',
];

/** Memory types of typed entries (schemas/entry.schema.json `type`). */
export const ENTRY_TYPES = [
  'error_fix',
  'discovery',
  'decision',
  'learning',
  'warning',
  'codebase_knowledge',
  'preference',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

export interface Heading {
  /** 1–6. */
  readonly depth: number;
  /** Plain text of the heading. */
  readonly text: string;
  /** Range of the whole heading line. */
  readonly range: Range;
}

export interface Link {
  /** `wiki` = `[[target]]` / `[[target|label]]`; `markdown` = `[label](target)` with a relative target. */
  readonly kind: 'wiki' | 'markdown';
  /** The target as written (wiki: the part before `|` or `#`; markdown: the URL). */
  readonly target: string;
  /** Range of the whole link in the file. */
  readonly range: Range;
}

/** Range of one front-matter node, addressed by JSON pointer (`/tags/1`, `/source/agent`). */
export interface NodeRange {
  /** The key token, when the node is a mapping value. */
  readonly key?: Range;
  /** The value. */
  readonly value: Range;
}

export interface FrontMatter {
  /** Declared language: `yaml` for `---`, otherwise what followed `---` (`js`, `toml`, …). */
  readonly language: string;
  /** Parsed mapping (dates kept as ISO strings), or undefined when not YAML, unparseable or not a mapping. */
  readonly data: Readonly<Record<string, unknown>> | undefined;
  /** The whole block, delimiters included. */
  readonly range: Range;
  /** JSON pointer → ranges, for diagnostics at the offending key; '' is the whole block. */
  readonly nodes: Readonly<Record<string, NodeRange>>;
}

/** One recallable piece of a document. Lines are 1-based and inclusive (docs/DESIGN.md §3). */
export interface Chunk {
  /** `path#startLine`, unique in the workspace. */
  readonly id: string;
  readonly path: RelPath;
  readonly kind: DocKind;
  readonly startLine: number;
  readonly endLine: number;
  /** Headings above the chunk, outermost first (texts only). */
  readonly headingPath: readonly string[];
  /** The chunk's markdown text as in the file (line ends normalised to \n). */
  readonly text: string;
  /** sha256 of `text`. */
  readonly hash: string;
}

/** Linked code file of an entry (`files:` in front-matter). */
export interface FileRef {
  readonly path: string;
  readonly relation?: string;
  readonly lines?: readonly number[];
}

/** Normalised, typed view of the fields recall filters on. Undefined fields are absent. */
export interface DocMeta {
  /** Entry/playbook id (front-matter `id`, else the file slug). */
  readonly id?: string;
  readonly type?: string;
  readonly title?: string;
  readonly tags: readonly string[];
  readonly files: readonly FileRef[];
  /** ISO date or date-time: `created` for entries, the file-name date for daily notes. */
  readonly date?: string;
  readonly status?: string;
  readonly duplicateOf?: string;
  /** Ids of older memories this one replaces (`supersedes:`). */
  readonly supersedes?: readonly string[];
  /** `valid_until:` — ISO date after which the memory no longer holds. */
  readonly validUntil?: string;
  /** `review_after:` — ISO date after which the memory should be confirmed again. */
  readonly reviewAfter?: string;
  /** Ids of similar memories confirmed not to contradict this one (`compatible_with:`, "keep both"). */
  readonly compatibleWith?: readonly string[];
  readonly category?: string;
  readonly priority?: number;
  readonly active?: boolean;
  readonly agent?: string;
}

export interface MemoryDoc {
  readonly path: RelPath;
  readonly kind: DocKind;
  /** Text as the editor shows it: BOM removed, line ends untouched. */
  readonly text: string;
  readonly hasBom: boolean;
  /** Dominant line ending of the file. */
  readonly eol: '\n' | '\r\n';
  /** sha256 of the normalised text (see core/hash.ts contentHash). */
  readonly contentHash: string;
  readonly frontMatter: FrontMatter | undefined;
  readonly headings: readonly Heading[];
  readonly links: readonly Link[];
  readonly chunks: readonly Chunk[];
  readonly meta: DocMeta;
  /** Diagnostics found while parsing (YAML, unsupported language, unclosed block). */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The body of a document: its text from the line after the front-matter block's closing `---`
 * (the whole text when it has no front-matter block). The one owner of "text after front-matter":
 * dedupe, conflicts, ACE, memory diffs and the editor all read the body through this.
 * @returns a suffix of `doc.text` ('' when nothing follows the block).
 */
export function bodyOf(doc: Pick<MemoryDoc, 'text' | 'frontMatter'>): string {
  if (!doc.frontMatter) return doc.text;
  const li = new LineIndex(doc.text);
  const next = doc.frontMatter.range.end.line + 1;
  return next < li.lineCount ? doc.text.slice(li.offsetAt({ line: next, character: 0 })) : '';
}
