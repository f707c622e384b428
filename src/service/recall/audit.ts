// Retrieval audit: with `recall.audit` on, every recall appends what it returned to a bounded log in
// derived state (never in the work tree), so a person can see what an agent was given. Every string
// of an entry is written with its secrets masked (core/secret-mask.ts): no secret sits in the log.
// deps: core (IndexStorage port, secret-mask).
import type { IndexStorage } from '../../core/ports.js';
import { maskSecrets } from '../../core/secret-mask.js';

const AUDIT_ARTIFACT = 'audit.jsonl';
/** Entries kept; older ones are dropped. */
const AUDIT_KEEP = 1000;

/** One audited recall. */
export interface AuditEntry {
  readonly time: string;
  readonly query: string;
  readonly mode: string;
  readonly degraded: string | null;
  readonly results: readonly { readonly path: string; readonly startLine: number; readonly endLine: number }[];
  /** UTF-8 bytes of the rendered context block (0 when none was rendered). */
  readonly bytes: number;
}

/**
 * Append `entry` (read-modify-write through an atomic replace; the log is capped at {@link AUDIT_KEEP}),
 * each of its strings (the query, and whatever text an entry carries) with secrets masked.
 */
export async function appendAudit(storage: IndexStorage, entry: AuditEntry): Promise<void> {
  const lines = await readLines(storage);
  lines.push(JSON.stringify(entry, (_key, value: unknown) => (typeof value === 'string' ? maskSecrets(value) : value)));
  await storage.write(AUDIT_ARTIFACT, `${lines.slice(-AUDIT_KEEP).join('\n')}\n`);
}

/** The most recent `limit` entries, newest first. Unreadable lines are skipped. */
export async function readAudit(storage: IndexStorage, limit = 20): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  for (const l of (await readLines(storage)).reverse()) {
    try {
      out.push(JSON.parse(l) as AuditEntry);
    } catch {
      continue;
    }
    if (out.length >= limit) break;
  }
  return out;
}

async function readLines(storage: IndexStorage): Promise<string[]> {
  const bytes = await storage.read(AUDIT_ARTIFACT);
  if (!bytes) return [];
  return new TextDecoder()
    .decode(bytes)
    .split('\n')
    .filter((l) => l.trim());
}
