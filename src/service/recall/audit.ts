// Retrieval audit: every agent-facing recall (MCP, `hook prompt`, `gitmem context`, the editor's agent
// requests) appends what the agent was given — the query, each result with its provenance, review
// state and labels, what was withheld and the bytes of the block — to a bounded log in derived state
// (never in the work tree). On by default; `recall.audit: false` turns it off. The log is JSON lines
// in generations: `audit.jsonl` is appended to (one O_APPEND write per entry, so processes never
// interleave) and, past {@link GENERATION_BYTES}, renamed to `audit.<n>.jsonl`; {@link GENERATIONS}
// old generations are kept (about the last 10,000 recalls). Every string of an entry is written with
// its secrets masked (core/secret-mask.ts): no secret sits in the log. deps: core (IndexStorage port, secret-mask).
import type { IndexStorage } from '../../core/ports.js';
import { maskSecrets } from '../../core/secret-mask.js';

const AUDIT_ARTIFACT = 'audit.jsonl';
/** A generation is closed past this many bytes (~1,000 entries of ~1 KB)… */
const GENERATION_BYTES = 1024 * 1024;
/** …and this many closed generations are kept. */
const GENERATIONS = 9;
/** Without an append operation (in-memory storage), the log is replaced whole and capped here. */
const AUDIT_KEEP = 1000;
const genName = (n: number) => `audit.${n}.jsonl`;

/** One result as the agent got it. */
export interface AuditResult {
  readonly path: string;
  readonly startLine: number;
  readonly endLine: number;
  /** Short commit id, or `uncommitted`. */
  readonly commit?: string;
  readonly review?: string;
  /** Compact texts of the other labels (service/trust/types.ts TrustLabel). */
  readonly labels?: readonly string[];
}

/** One audited recall. */
export interface AuditEntry {
  readonly time: string;
  /** Which entry answered: `mcp`, `hook`, `context`, `lsp`, … */
  readonly channel?: string;
  readonly query: string;
  readonly mode: string;
  readonly degraded: string | null;
  readonly results: readonly AuditResult[];
  /** The line saying what the injection policy held back, when it did. */
  readonly withheld?: string;
  /** UTF-8 bytes of the rendered context block (0 when none was rendered). */
  readonly bytes: number;
}

/** A result as the audit keeps it: where, its commit, review state and labels. */
export function auditResultOf(r: {
  path: string;
  startLine: number;
  endLine: number;
  provenance?: { commit: string; short?: string };
  review?: string;
  labels?: readonly { text: string }[];
}): AuditResult {
  return {
    path: r.path,
    startLine: r.startLine,
    endLine: r.endLine,
    ...(r.provenance ? { commit: r.provenance.short ?? r.provenance.commit } : {}),
    ...(r.review ? { review: r.review } : {}),
    ...(r.labels?.length ? { labels: r.labels.map((l) => l.text) } : {}),
  };
}

/** Append `entry`; a full generation is closed and the oldest dropped. */
export async function appendAudit(storage: IndexStorage, entry: AuditEntry): Promise<void> {
  // Each string (the query, labels, the withheld line) with its secrets masked.
  const line = `${JSON.stringify(entry, (_key, value: unknown) => (typeof value === 'string' ? maskSecrets(value) : value))}\n`;
  if (!storage.append || !storage.rename) {
    const lines = await readLines(storage, AUDIT_ARTIFACT);
    lines.push(line.trimEnd());
    await storage.write(AUDIT_ARTIFACT, `${lines.slice(-AUDIT_KEEP).join('\n')}\n`);
    return;
  }
  const size = await storage.append(AUDIT_ARTIFACT, line);
  if (size < GENERATION_BYTES) return;
  // Close the generation: claim it by renaming it (another process closing at the same time finds
  // `audit.jsonl` gone and does nothing), shift the old ones up (the oldest falls off), put it first.
  const closing = `audit.closing-${process.pid}-${Date.now()}.jsonl`;
  if (!(await storage.rename(AUDIT_ARTIFACT, closing))) return;
  await storage.remove(genName(GENERATIONS));
  for (let n = GENERATIONS - 1; n >= 1; n--) await storage.rename(genName(n), genName(n + 1));
  await storage.rename(closing, genName(1));
}

/** The most recent `limit` entries, newest first. Unreadable lines are skipped. */
export async function readAudit(storage: IndexStorage, limit = 20): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  for (const name of [AUDIT_ARTIFACT, ...Array.from({ length: GENERATIONS }, (_, i) => genName(i + 1))]) {
    for (const l of (await readLines(storage, name)).reverse()) {
      try {
        out.push(JSON.parse(l) as AuditEntry);
      } catch {
        continue;
      }
      if (out.length >= limit) return out;
    }
  }
  return out;
}

async function readLines(storage: IndexStorage, name: string): Promise<string[]> {
  const bytes = await storage.read(name);
  if (!bytes) return [];
  return new TextDecoder()
    .decode(bytes)
    .split('\n')
    .filter((l) => l.trim());
}
