// The tag catalogue: an optional `tags.md` at the top of the memory folder that describes tags as
// entities — one `## name` section per tag with `- category: …` and `- description: …` bullets (or
// the section's first paragraph as the description). Without the file there is no catalogue and
// any tag is fine. Parsing only; no I/O. Imports only core.
//
//   # Tags
//
//   ## postgres
//   - category: infrastructure
//   - description: The staging and production databases.
import type { MemoryDoc } from './document.js';
import type { MemoryWorkspace } from './workspace.js';

const TAGS_FILE = 'tags.md';

/** One catalogued tag. */
export interface TagInfo {
  readonly name: string;
  readonly description: string | null;
  readonly category: string | null;
  /** 0-based line of its `##` heading in tags.md. */
  readonly line: number;
}

/** Tags of a tags.md text, by name (the first section of a name wins). */
export function parseTagCatalogue(text: string): Map<string, TagInfo> {
  const out = new Map<string, TagInfo>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    const h = /^##\s+#?([^\s#][^\s]*)\s*$/.exec(lines[i]!);
    if (!h) continue;
    let j = i + 1;
    const body: string[] = [];
    while (j < lines.length && !/^#{1,2}\s/.test(lines[j]!)) body.push(lines[j++]!);
    const field = (k: string) =>
      body.map((l) => new RegExp(`^\\s*[-*]\\s+${k}:\\s*(.+?)\\s*$`, 'i').exec(l)?.[1]).find((v) => v !== undefined) ??
      null;
    const prose = body.filter((l) => l.trim() && !/^\s*[-*]\s+\w+:/.test(l)).map((l) => l.trim());
    const name = h[1]!;
    if (!out.has(name))
      out.set(name, {
        name,
        category: field('category'),
        description: field('description') ?? (prose.length ? prose.join(' ') : null),
        line: i,
      });
    i = j - 1;
  }
  return out;
}

/** Could `doc` be the tag catalogue (a note named `tags.md`)? */
export function isTagCatalogueCandidate(doc: MemoryDoc): boolean {
  return doc.kind === 'note' && (doc.path === TAGS_FILE || doc.path.endsWith(`/${TAGS_FILE}`));
}

/** The catalogue document: `tags.md` directly under the memory folder (the shallowest one), if any. */
function catalogueDoc(ws: MemoryWorkspace): MemoryDoc | undefined {
  let best: MemoryDoc | undefined;
  for (const d of ws.docs()) {
    if (!isTagCatalogueCandidate(d)) continue;
    if (!best || d.path.split('/').length < best.path.split('/').length) best = d;
  }
  return best;
}

/** The workspace's tag catalogue, or undefined when it has no tags.md. */
export function tagCatalogue(
  ws: MemoryWorkspace,
): { readonly path: string; readonly tags: Map<string, TagInfo> } | undefined {
  const doc = catalogueDoc(ws);
  return doc ? { path: doc.path, tags: parseTagCatalogue(doc.text) } : undefined;
}
