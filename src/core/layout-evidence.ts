// What makes a folder of markdown a notes workspace (the `plain` layout) rather than a project whose
// README, docs and changelog are its own files (docs/bad-inputs.md R50). Pure; imports only core.
// The loader (engine/load/load.ts) does the I/O and asks these questions of what it finds.
import { ENTRY_TYPES } from './document.js';
import { dailyDateOf } from './layout.js';

/** Files or folders that mark a notes app's vault (Obsidian, Foam, Logseq, Dendron), relative to the root. */
export const NOTES_APP_MARKERS: readonly string[] = ['.obsidian', '.foam', 'logseq/config.edn', 'dendron.yml'];

/** The core files of a Cline memory bank (lower case). */
const MEMORY_BANK_FILES = new Set([
  'projectbrief.md',
  'productcontext.md',
  'activecontext.md',
  'systempatterns.md',
  'techcontext.md',
  'progress.md',
]);

/**
 * Why the markdown file at `path` (relative, POSIX) is a note of a notes workspace by its name alone,
 * or undefined when its name says nothing (README.md, docs/api.md, CHANGELOG.md, a blog post
 * `_posts/2024-01-05-hello.md`). Notes by name: a daily note (`YYYY-MM-DD.md`, a real date, in any
 * folder), a file of a root `entries/` or `playbook/` folder, a root DREAMS.md or CURRENT_STATE.md,
 * a Cline memory-bank file (projectbrief.md, activeContext.md, …) or any file in a `*memory-bank*` folder.
 */
export function notesByName(path: string): string | undefined {
  const parts = path.split('/');
  const base = parts[parts.length - 1]!;
  if (/^\d{4}-\d{2}-\d{2}\.md$/i.test(base) && dailyDateOf(base)) return `a daily note (${path})`;
  if (parts.length > 1 && (parts[0] === 'entries' || parts[0] === 'playbook')) return `a memory entry (${path})`;
  if (parts.length === 1 && (base === 'DREAMS.md' || base === 'CURRENT_STATE.md')) return `${path}`;
  if (MEMORY_BANK_FILES.has(base.toLowerCase())) return `a memory-bank file (${path})`;
  if (parts.slice(0, -1).some((p) => /memory[-_ ]?bank/i.test(p))) return `a memory-bank file (${path})`;
  return undefined;
}

/**
 * Why the markdown `text` of `path` is a note: YAML front-matter at the top whose `type` is one of
 * the entry types (decision, learning, …), or a `[[wikilink]]` outside code (notes apps link notes
 * so; a project's README and docs link by path, and mention the syntax only in code). Undefined otherwise.
 */
export function notesByText(path: string, text: string): string | undefined {
  return typedEntry(path, text) ?? wikilinked(path, text);
}

/** A `[[wikilink]]` in prose (fenced blocks and code spans left out). */
function wikilinked(path: string, text: string): string | undefined {
  const prose = text.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1/gm, '').replace(/`+[^`\n]*`+/g, '');
  const link = /\[\[[^[\]\n]+\]\]/.exec(prose)?.[0];
  return link ? `a note linking others by wikilink (${path}: ${link})` : undefined;
}

function typedEntry(path: string, text: string): string | undefined {
  const m = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)\s*(?:\r?\n|$)/.exec(text);
  if (!m) return undefined;
  const type = /^type:[ \t]*["']?([a-z_]+)["']?[ \t]*$/m.exec(m[1]!)?.[1];
  return type && (ENTRY_TYPES as readonly string[]).includes(type)
    ? `a typed entry (${path}, type ${type})`
    : undefined;
}
