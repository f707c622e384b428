// The names a recall answer shows, masked: a file path, an entry id, a tag or a `path:line` reference
// that holds a credential is shown as `memory/topics/AKIA…[redacted: AWS access key].md`
// (core/secret-mask.ts maskName; `gitmem:allow-secret` does not apply to names). Chunk text is masked
// when it is indexed (parse/chunk.ts), names are not (a path is the index's key), so they are masked
// here, once per answer, after the trust stage has read git by the real paths and before the
// context block is rendered (its label lines and its byte count then hold the masked path). Every
// surface inherits it: `recall --json`, MCP `memory_recall`, the language server, hosts, the block of
// `hook prompt` and `context --budget`, the audit. Only the CLI's own `recall --reveal` shows names as
// written. `gitmem review`, `gitmem log` and `gitmem files` show their names through the same mask
// (R60). deps: core, ace (types), git (types), service/recall (types).
import type { FileKnowledge } from '../../ace/knowledge.js';
import { tagForAgent } from '../../core/agent-text.js';
import { markInjection } from '../../core/injection.js';
import { maskName } from '../../core/secret-mask.js';
import type { LogEntry } from '../../git/history.js';
import type { SyncCommit } from '../git-ops/sync-types.js';
import type { ContextItem } from '../recall/context-block.js';
import type { RecallResult } from '../recall/types.js';

const names = (xs: readonly string[]): string[] => xs.map(maskName);
/** A heading as shown: masked, and labelled when it reads as an instruction (R64), as `get` labels the line. */
const heading = (h: string): string => markInjection(maskName(h));

/** `r` with its path, entry id, tags and the references and labels it carries masked. */
export function maskResultNames(r: RecallResult): RecallResult {
  return {
    ...r,
    path: maskName(r.path),
    headingPath: r.headingPath.map(heading),
    ...(r.entry ? { entry: { ...r.entry, id: maskName(r.entry.id), tags: r.entry.tags.map(tagForAgent) } } : {}),
    ...(r.supersededBy ? { supersededBy: names(r.supersededBy) } : {}),
    ...(r.newerStatement ? { newerStatement: { ...r.newerStatement, path: maskName(r.newerStatement.path) } } : {}),
    ...(r.conflictsWith ? { conflictsWith: names(r.conflictsWith) } : {}),
    ...(r.labels ? { labels: r.labels.map((l) => ({ ...l, text: maskName(l.text) })) } : {}),
  };
}

/** A context-block item with its path, labels and conflict references masked. */
export function maskItemNames(it: ContextItem): ContextItem {
  return {
    ...it,
    path: maskName(it.path),
    ...(it.headingPath !== undefined ? { headingPath: it.headingPath.map(heading) } : {}),
    ...(it.label !== undefined ? { label: maskName(it.label) } : {}),
    ...(it.labels !== undefined ? { labels: maskName(it.labels) } : {}),
    ...(it.conflictsWith ? { conflictsWith: names(it.conflictsWith) } : {}),
  };
}

/** A file awaiting review as `gitmem review` shows it: its path masked. */
export function maskPendingName<T extends { readonly path: string }>(p: T): T {
  return { ...p, path: maskName(p.path) };
}

/**
 * A commit as `gitmem log` shows it: its summary, body, reason, changed paths and Memory-Op paths
 * and ids masked (a commit message may name a file after a key, or quote one), and the lines of its
 * message that read as an instruction labelled (R103).
 */
export function maskLogEntry(e: LogEntry): LogEntry {
  return {
    ...e,
    // A commit message is text a teammate (or their agent) wrote: labelled when it orders (R103).
    summary: heading(e.summary),
    body: heading(e.body),
    ...(e.reason !== undefined ? { reason: heading(e.reason) } : {}),
    files: e.files.map((f) => ({ ...f, path: maskName(f.path) })),
    memory: e.memory.map((m) => ({
      ...m,
      path: maskName(m.path),
      ...(m.id !== undefined ? { id: maskName(m.id) } : {}),
    })),
  };
}

/**
 * What `gitmem files` shows about a code path: every path, id, title and mention masked, titles and
 * mention lines labelled when they read as an instruction (R183).
 */
export function maskFileKnowledge(k: FileKnowledge): FileKnowledge {
  const title = (t: string | null) => (t === null ? null : heading(t));
  return {
    ...k,
    path: maskName(k.path),
    memories: k.memories.map((m) => ({ ...m, id: maskName(m.id), path: maskName(m.path), title: title(m.title) })),
    playbook: k.playbook.map((p) => ({ ...p, id: maskName(p.id), path: maskName(p.path), title: heading(p.title) })),
    mentions: k.mentions.map((m) => ({ ...m, path: maskName(m.path), text: heading(m.text) })),
    relatedFiles: k.relatedFiles.map((f) => ({ ...f, path: maskName(f.path) })),
  };
}

/**
 * `r` with the summaries of the commits a sync brought in and sent masked and labelled as `gitmem
 * log` shows them (R103): a teammate's commit message is text from elsewhere, not an instruction.
 */
export function maskSyncCommits<R extends { readonly commitsIn: SyncCommit[]; readonly commitsOut: SyncCommit[] }>(
  r: R,
): R {
  const shown = (cs: SyncCommit[]) => cs.map((c) => ({ ...c, summary: heading(c.summary) }));
  return { ...r, commitsIn: shown(r.commitsIn), commitsOut: shown(r.commitsOut) };
}
