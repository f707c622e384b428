// The files an agent host always loads that `gitmem export` writes its block into, and how much of
// each the host loads: the one table of host load limits (export packs to it, doctor warns when a
// file passes it). Limits as each host documents them; sources in docs/integrations.md.
// deps: core (budget), service/integrate (hosts).
import type { LoadBudget } from '../../core/budget.js';
import { CURSOR_RULE, CURSOR_RULE_PREAMBLE } from '../integrate/hosts.js';

export const EXPORT_TARGETS = ['agents-md', 'claude-md', 'cursor-rules', 'copilot-instructions'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

/** No limit of this kind. */
export const NONE = Number.MAX_SAFE_INTEGER;

/** One always-loaded file of a host. */
export interface HostFile {
  /** Path from the repository root. */
  readonly path: string;
  /** The host that loads it, as users name it. */
  readonly host: string;
  /** How much of the file the host loads from the top (lines with their line break; UTF-8 bytes). */
  readonly budget: LoadBudget;
  /** The limit in words, for messages and docs. */
  readonly limit: string;
  /** What a new file starts with before the block (a rule file's front-matter). */
  readonly preamble?: string;
}

export const HOST_FILES: Readonly<Record<ExportTarget, HostFile>> = {
  // Codex concatenates the AGENTS.md chain (global, then the repository's from the root down) and
  // stops at project_doc_max_bytes, 32 KiB by default.
  'agents-md': { path: 'AGENTS.md', host: 'Codex', budget: { maxLines: NONE, maxBytes: 32 * 1024 }, limit: '32 KiB' },
  // Claude Code loads its auto memory's MEMORY.md up to 200 lines or 25 KB, and CLAUDE.md whole but
  // asks to keep it under 200 lines: the export keeps CLAUDE.md to the same 200 lines / 25 KB.
  'claude-md': {
    path: 'CLAUDE.md',
    host: 'Claude Code',
    budget: { maxLines: 200, maxBytes: 25_000 },
    limit: '200 lines / 25 KB',
  },
  // Cursor: keep a rule under 500 lines.
  'cursor-rules': {
    path: CURSOR_RULE,
    host: 'Cursor',
    budget: { maxLines: 500, maxBytes: NONE },
    limit: '500 lines',
    preamble: CURSOR_RULE_PREAMBLE,
  },
  // Copilot code review reads the first 4,000 characters of an instruction file (bytes ≥ characters).
  'copilot-instructions': {
    path: '.github/copilot-instructions.md',
    host: 'GitHub Copilot',
    budget: { maxLines: NONE, maxBytes: 4000 },
    limit: '4,000 characters',
  },
};

/** A budget in words: "200 lines / 25000 bytes", "32768 bytes", "500 lines". */
export function budgetWords(b: LoadBudget): string {
  const parts = [];
  if (b.maxLines < NONE) parts.push(`${b.maxLines} lines`);
  if (b.maxBytes < NONE) parts.push(`${b.maxBytes} bytes`);
  return parts.join(' / ') || 'no limit';
}
