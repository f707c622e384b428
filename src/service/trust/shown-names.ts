// The names a recall answer shows, masked: a file path, an entry id, a tag or a `path:line` reference
// that holds a credential is shown as `memory/topics/AKIA…[redacted: AWS access key].md`
// (core/secret-mask.ts maskName; `gitmem:allow-secret` does not apply to names). Chunk text is masked
// when it is indexed (parse/chunk.ts), names are not (a path is the index's key), so they are masked
// here, once per answer, after the trust stage has read git by the real paths and before the
// context block is rendered (its label lines and its byte count then hold the masked path). Every
// surface inherits it: `recall --json`, MCP `memory_recall`, the language server, hosts, the block of
// `hook prompt` and `context --budget`, the audit. Only the CLI's own `recall --reveal` shows names as
// written. deps: core, service/recall (types).
import { maskName } from '../../core/secret-mask.js';
import type { ContextItem } from '../recall/context-block.js';
import type { RecallResult } from '../recall/types.js';

const names = (xs: readonly string[]): string[] => xs.map(maskName);

/** `r` with its path, entry id, tags and the references and labels it carries masked. */
export function maskResultNames(r: RecallResult): RecallResult {
  return {
    ...r,
    path: maskName(r.path),
    ...(r.entry ? { entry: { ...r.entry, id: maskName(r.entry.id), tags: names(r.entry.tags) } } : {}),
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
    ...(it.label !== undefined ? { label: maskName(it.label) } : {}),
    ...(it.labels !== undefined ? { labels: maskName(it.labels) } : {}),
    ...(it.conflictsWith ? { conflictsWith: names(it.conflictsWith) } : {}),
  };
}
