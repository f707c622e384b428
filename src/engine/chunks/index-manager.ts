// Chunk records (what recall needs without re-reading files), the index fingerprint and the snapshot
// type. The live, segmented index that keeps them in step with the files is engine/live/live-index.ts.
// deps: core, indexes.
import type { MemoryConfig } from '../../core/config.js';
import type { DocKind, MemoryDoc } from '../../core/document.js';
import { sha256 } from '../../core/hash.js';
import { maskSecrets } from '../../core/secret-mask.js';
import type { Layout } from '../../core/layout.js';
import type { MemoryWorkspace } from '../../core/workspace.js';
import { LexicalIndex, type LexicalDoc, type LexicalSearcher } from '../../indexes/lexical/lexical.js';
import { manifestFiles, type IndexManifest } from '../../indexes/manifest/manifest.js';
import { diffFiles, fileSetOf } from '../../indexes/manifest/manifest-diff.js';
import { chunkerFingerprint } from '../../parse/chunk.js';
import { TOKENIZER_VERSION } from '../../core/tokenize.js';
import { embedKey } from '../vectors/embed-text.js';

/**
 * Bump when the persisted shape of the chunk records (service/chunk-codec.ts) or of the keyword
 * segments (indexes/lexical/lexical-codec.ts) or of the per-file entries changes. 7: binary chunk records and
 * segments with term dictionaries. 8: id and embedding-key columns in the chunk records. 9: per-file
 * entries in binary base + delta file tables (indexes/manifest/file-table.ts) instead of inside manifest.json.
 */
export const INDEX_FORMAT_VERSION = 9;

/** One chunk as persisted in a chunk-record artifact (service/chunk-codec.ts): everything recall needs without re-reading files. */
export interface ChunkRecord {
  readonly id: string;
  readonly path: string;
  readonly kind: DocKind;
  readonly startLine: number;
  readonly endLine: number;
  readonly headingPath: readonly string[];
  readonly text: string;
  readonly entry?: { readonly id: string; readonly type: string | null; readonly tags: readonly string[] };
  readonly tags: readonly string[];
  readonly date?: string;
  readonly hidden?: 'superseded' | 'archived' | 'duplicate' | 'inactive';
  readonly files?: readonly string[];
  /** Entry or playbook title. */
  readonly title?: string;
  /** Front-matter title of any other document (indexed as the keyword title field, not embedded). */
  readonly docTitle?: string;
  /** A note's file name (without `.md`) and front-matter `aliases`: keyword title field. */
  readonly names?: string;
  /** Embedding cache key (sha256 of the embedded text: title, headings, chunk). */
  readonly vkey?: string;
  /** Entry `source.agent` (recall `--agent`). */
  readonly agent?: string;
  /** Entry ids this entry replaces (`supersedes:`); those are hidden from recall (service/recall/truth.ts). */
  readonly supersedes?: readonly string[];
  /** Entry ids this entry was declared compatible with (`compatible_with:`): never labelled as conflicting at recall. */
  readonly compatibleWith?: readonly string[];
  /** `valid_until` / `review_after` dates; past them the entry ranks down (service/recall/truth.ts). */
  readonly validUntil?: string;
  readonly reviewAfter?: string;
}

/** Chunk id → record; may list the records that carry `supersedes` without a walk over every chunk. */
export interface ChunkSource extends ReadonlyMap<string, ChunkRecord> {
  superseding?(): Iterable<ChunkRecord>;
  /** (embedding key, chunk id) of every chunk with a key, without decoding records that are still encoded. */
  vectorKeys?(): Iterable<readonly [vkey: string, id: string]>;
  /**
   * The first record of `path` (its kind, path and entry fields are the file's), decoding only that
   * record; undefined when the path has none.
   */
  firstOf?(path: string): ChunkRecord | undefined;
}

/** (embedding key, chunk id) of every chunk of `chunks` that has a key (its columns when it has them). */
export function* vectorKeysOf(chunks: ChunkSource): Iterable<readonly [vkey: string, id: string]> {
  if (chunks.vectorKeys) yield* chunks.vectorKeys();
  else for (const c of chunks.values()) if (c.vkey) yield [c.vkey, c.id] as const;
}

/** A loaded or freshly built keyword index with its chunk table. */
export interface IndexSnapshot {
  /** One segment, or base + delta merged at query time (engine/live/live-index.ts). */
  readonly lexical: LexicalSearcher;
  readonly chunks: ChunkSource;
  readonly manifest: IndexManifest;
  /** `loaded` from disk, or `built` now (with the reason the persisted one was not used). */
  readonly source: 'loaded' | 'built';
  readonly reason?: string;
  readonly ms: number;
  /** Embedding key → ids of the chunks that carry it (built on first use; absent on ad-hoc snapshots). */
  byVectorKey?(): ReadonlyMap<string, readonly string[]>;
}

/** Add the lazily built embedding-key map to a snapshot. */
export function withKeyMap(s: Omit<IndexSnapshot, 'byVectorKey'>): IndexSnapshot {
  let m: Map<string, string[]> | undefined;
  return {
    ...s,
    byVectorKey() {
      if (!m) {
        m = new Map();
        for (const [vkey, id] of vectorKeysOf(s.chunks)) {
          const list = m.get(vkey);
          if (list) list.push(id);
          else m.set(vkey, [id]);
        }
      }
      return m;
    },
  };
}

/**
 * Fingerprint of everything that changes chunks or tokens (not the file contents), 16 hex digits.
 * `chunker`: the chunker's fingerprint (default parse/chunk.ts `chunkerFingerprint()`; another value
 * gives the fingerprint an index made by that chunker holds).
 */
export function indexFingerprint(config: MemoryConfig, layout: Layout, chunker = chunkerFingerprint()): string {
  return sha256(
    JSON.stringify({
      f: INDEX_FORMAT_VERSION,
      c: chunker,
      t: TOKENIZER_VERSION,
      chunking: config.chunking,
      kinds: layout.kinds,
      ignore: layout.ignore,
    }),
  ).slice(0, 16);
}

/** Turn the parsed workspace into chunk records (hidden flags computed from front-matter). */
export function chunkRecords(workspace: MemoryWorkspace): ChunkRecord[] {
  const out: ChunkRecord[] = [];
  for (const doc of workspace.docs()) out.push(...docRecords(doc));
  return out;
}

/** Kinds whose front-matter properties are searchable as their own chunk (an Obsidian note made of properties). */
const PROPERTY_KINDS: ReadonlySet<DocKind> = new Set(['note', 'long_term', 'daily']);

/**
 * File name without folder and `.md`, plus front-matter `aliases`, for notes (an Obsidian note is
 * known by its file name); undefined for other kinds (entries and playbooks have titles and slugs of
 * them, daily notes are named by date).
 */
function docNames(doc: MemoryDoc): string | undefined {
  if (doc.kind !== 'note') return undefined;
  const base = doc.path.slice(doc.path.lastIndexOf('/') + 1).replace(/\.(md|markdown)$/i, '');
  const raw = doc.frontMatter?.data?.aliases;
  const aliases = (Array.isArray(raw) ? raw : raw !== undefined ? [raw] : []).filter(
    (a): a is string => typeof a === 'string' && a.trim() !== '',
  );
  const names = [base, ...aliases].filter((n) => n.trim());
  return names.length ? names.join(' · ') : undefined;
}

/**
 * The front-matter lines between the delimiters of a note, long-term file or daily note that has
 * properties (1-based start and end line), or undefined.
 */
function propertyLines(doc: MemoryDoc): { startLine: number; endLine: number; text: string } | undefined {
  const fm = doc.frontMatter;
  if (!PROPERTY_KINDS.has(doc.kind) || !fm?.data || Object.keys(fm.data).length === 0) return undefined;
  const lines = doc.text.split(/\r?\n/);
  const first = fm.range.start.line + 1;
  let last = first;
  while (last < lines.length && !/^(?:---|\.\.\.)\s*$/.test(lines[last]!)) last++;
  const body = lines.slice(first, last);
  while (body.length && !body[body.length - 1]!.trim()) body.pop();
  if (!body.some((l) => l.trim())) return undefined;
  // Masked like chunk text (parse/chunk.ts): a property may hold a credential.
  return { startLine: first + 1, endLine: first + body.length, text: maskSecrets(body.join('\n')) };
}

/** `s` with its secrets masked (core/secret-mask.ts); undefined stays undefined. */
const mask = (s: string | undefined): string | undefined => (s === undefined ? s : maskSecrets(s));

/** Chunk records of one document, in chunk order (its properties first, when it has any). */
export function docRecords(doc: MemoryDoc): ChunkRecord[] {
  const out: ChunkRecord[] = [];
  const m = doc.meta;
  const typed = doc.kind === 'entry' || doc.kind === 'playbook';
  let hidden: ChunkRecord['hidden'];
  if (m.status === 'superseded') hidden = 'superseded';
  else if (m.status === 'archived') hidden = 'archived';
  else if (m.duplicateOf) hidden = 'duplicate';
  else if (doc.kind === 'playbook' && m.active === false) hidden = 'inactive';
  const names = mask(docNames(doc));
  const props = propertyLines(doc);
  const chunks = props
    ? [
        {
          id: `${doc.path}#${props.startLine}`,
          path: doc.path,
          kind: doc.kind,
          startLine: props.startLine,
          endLine: props.endLine,
          headingPath: [] as string[],
          text: props.text,
        },
        ...doc.chunks,
      ]
    : doc.chunks;
  const docTitle = mask(m.title);
  for (const c of chunks) {
    const title = typed && docTitle ? docTitle : undefined;
    // The properties chunk is embedded with the note's name: that is what it is about.
    const embedTitle = title ?? (props && c.startLine === props.startLine && names ? names : undefined);
    out.push({
      id: c.id,
      path: c.path,
      kind: c.kind,
      startLine: c.startLine,
      endLine: c.endLine,
      headingPath: [...c.headingPath],
      text: c.text,
      ...(typed && m.id !== undefined ? { entry: { id: m.id, type: m.type ?? null, tags: [...m.tags] } } : {}),
      tags: [...m.tags],
      ...(m.date ? { date: m.date } : {}),
      ...(hidden ? { hidden } : {}),
      ...(m.files.length ? { files: m.files.map((f) => f.path) } : {}),
      ...(title ? { title } : {}),
      ...(!title && docTitle ? { docTitle } : {}),
      ...(names ? { names } : {}),
      ...(m.agent ? { agent: m.agent } : {}),
      ...(typed && m.supersedes?.length ? { supersedes: [...m.supersedes] } : {}),
      ...(typed && m.compatibleWith?.length ? { compatibleWith: [...m.compatibleWith] } : {}),
      ...(typed && m.validUntil ? { validUntil: m.validUntil } : {}),
      ...(typed && m.reviewAfter ? { reviewAfter: m.reviewAfter } : {}),
      vkey: embedKey({ text: c.text, headingPath: c.headingPath, ...(embedTitle ? { title: embedTitle } : {}) }),
    });
  }
  return out;
}

/** The keyword-index view of a chunk record: text, title (entry or document title), tags, headings. */
export function lexicalDoc(r: ChunkRecord): LexicalDoc {
  const title = [r.title ?? r.docTitle, r.names].filter(Boolean).join(' · ');
  return { ref: r.id, text: r.text, ...(title ? { title } : {}), tags: r.tags, headings: r.headingPath };
}

/** Build the keyword index over `records`; entry titles and tags are boosted fields. */
export function buildLexical(records: readonly ChunkRecord[], titles: ReadonlyMap<string, string>): LexicalIndex {
  return LexicalIndex.build(
    records.map((r) => ({
      ref: r.id,
      text: r.text,
      ...(titles.get(r.path) ? { title: titles.get(r.path)! } : {}),
      tags: r.tags,
      headings: r.headingPath,
    })),
  );
}

/** @returns a reason when the manifest's file set or hashes differ from `hashes`, else undefined. */
export function staleness(manifest: IndexManifest, hashes: Readonly<Record<string, string>>): string | undefined {
  const d = diffFiles(manifestFiles(manifest), fileSetOf(hashes));
  const [changed, added, removed] = [d.changed.length, d.added.length, d.removed.length];
  if (changed + added + removed === 0) return undefined;
  return `index stale (${changed} changed, ${added} added, ${removed} removed)`;
}
