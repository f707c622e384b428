// Detect the layout of a workspace with no config from the files present (docs/DESIGN.md §1): the
// I/O behind core/layout.ts explainLayout and core/layout-evidence.ts. deps: core.
import { NOTES_APP_MARKERS, notesByName, notesByText } from '../../core/layout-evidence.js';
import { classify, explainLayout, layoutPreset, type DetectedLayout } from '../../core/layout.js';
import { toRelPath } from '../../core/paths.js';
import type { MemoryFs } from '../../core/ports.js';
import { decodeText } from '../../core/text.js';

/** How many markdown files detection reads for front-matter at most (names are checked for all). */
const FRONT_MATTER_READS = 200;

/**
 * The layout of a workspace with no configured one, and why (core/layout.ts explainLayout): a few
 * existence probes, then, when none answers, whether its markdown is notes.
 */
export async function detectWorkspaceLayout(fs: MemoryFs): Promise<DetectedLayout> {
  const probes = ['.fusion/memory', 'MEMORY.md', 'memory.md', 'memory/MEMORY.md', 'memory', 'SOUL.md', 'HEARTBEAT.md'];
  const present = new Set<string>();
  for (const p of probes) if (await fs.stat(toRelPath(p))) present.add(p);
  const exists = (p: string) => present.has(p);
  if (present.size > 0) return explainLayout({ exists });
  return explainLayout({ exists, notes: await findNotes(fs) });
}

/**
 * Why the workspace is a notes workspace (core/layout-evidence.ts), or undefined: a notes app's
 * marker, else a markdown file that is a note by its name, else one of the first
 * {@link FRONT_MATTER_READS} markdown files whose front-matter makes it a typed entry.
 */
async function findNotes(fs: MemoryFs): Promise<string | undefined> {
  for (const m of NOTES_APP_MARKERS) if (await fs.stat(toRelPath(m))) return `${m} (a notes app's vault)`;
  const plain = layoutPreset('plain');
  const markdown = await fs.list((p) => classify(p, plain) !== undefined);
  for (const p of markdown) {
    const why = notesByName(p);
    if (why) return why;
  }
  for (const p of markdown.slice(0, FRONT_MATTER_READS)) {
    let bytes: Uint8Array | undefined;
    try {
      bytes = await fs.read(p);
    } catch {
      continue; // unreadable: the load reports it if it turns out to be memory
    }
    const why = bytes && notesByText(p, decodeText(bytes).text);
    if (why) return why;
  }
  return undefined;
}
