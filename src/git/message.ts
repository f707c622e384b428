// Checkpoint commit messages: a summary line, an optional body, then git trailers —
// one `Memory-Op` / `Memory-Kind` / `Memory-Id` / `Memory-Path` group per changed file, then one
// `Memory-Reason`. Parsing reads them back for `log` and playbook history. A path, id or kind holding a
// control character is written as a JSON string literal (core/text.ts quotedValue, B57): `git log`
// prints messages raw, so a file name's escape sequence would reach the terminal; the summary, body
// and reason show theirs as symbols. Pure.
import { quotedValue, shownControls, unquotedValue } from '../core/text.js';

export type MemoryOp = 'add' | 'update' | 'delete';

/** One changed memory file as recorded in the trailers. */
export interface MemoryChangeTrailer {
  readonly op: MemoryOp;
  /** Workspace-relative path ('' when a hand-written trailer group named only an id). */
  readonly path: string;
  /** Document kind (`entry`, `playbook`, `daily`, …) when known. */
  readonly kind?: string;
  /** Entry or playbook id when the file has one. */
  readonly id?: string;
}

/** A commit message taken apart. */
export interface ParsedMessage {
  readonly summary: string;
  /** Text between the summary and the trailer block ('' when none). */
  readonly body: string;
  /** Every trailer in order (`Key: value`). */
  readonly trailers: ReadonlyArray<{ readonly key: string; readonly value: string }>;
  /** Memory-Op groups; empty for commits gitmem did not write. */
  readonly changes: readonly MemoryChangeTrailer[];
  readonly reason?: string;
}

/** Most Memory-Op groups written; a bulk import says `Memory-More: N` instead of listing every file. */
const MAX_TRAILER_GROUPS = 100;

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ').trim();
/** A path, id or kind as a trailer value: one line, quoted when it holds a control character. */
const field = (s: string) => quotedValue(s.trim());

/** Summary written when the caller gives no message. */
export function defaultSummary(changes: readonly MemoryChangeTrailer[]): string {
  if (changes.length === 1) {
    const c = changes[0]!;
    const verb = c.op === 'add' ? 'add' : c.op === 'delete' ? 'delete' : 'update';
    const what = quotedValue(c.id ?? c.path);
    return `memory: ${verb} ${c.kind ? `${c.kind.replace(/_/g, ' ')} ` : ''}${what}`;
  }
  const n = (op: MemoryOp) => changes.filter((c) => c.op === op).length;
  const parts = [
    n('add') ? `${n('add')} added` : '',
    n('update') ? `${n('update')} updated` : '',
    n('delete') ? `${n('delete')} deleted` : '',
  ].filter(Boolean);
  return `memory: ${changes.length} files (${parts.join(', ')})`;
}

/**
 * Compose the commit message. `message` (first line = summary, the rest = body) defaults to
 * {@link defaultSummary}. Trailer values are single-line.
 */
export function buildMessage(args: {
  message?: string;
  reason?: string;
  changes: readonly MemoryChangeTrailer[];
}): string {
  // Text around the trailers (the summary, body and reason, which may quote titles from memory) shows
  // its control characters as symbols, as a terminal line does (shownControls; tab and LF kept).
  const given = shownControls((args.message ?? '').replace(/\r\n?/g, '\n')).trim();
  const [first, ...rest] = given ? given.split('\n') : [defaultSummary(args.changes)];
  const body = rest.join('\n').trim();
  const trailers: string[] = [];
  for (const c of args.changes.slice(0, MAX_TRAILER_GROUPS)) {
    trailers.push(`Memory-Op: ${c.op}`);
    if (c.kind) trailers.push(`Memory-Kind: ${field(c.kind)}`);
    if (c.id) trailers.push(`Memory-Id: ${field(c.id)}`);
    trailers.push(`Memory-Path: ${field(c.path)}`);
  }
  if (args.changes.length > MAX_TRAILER_GROUPS)
    trailers.push(`Memory-More: ${args.changes.length - MAX_TRAILER_GROUPS}`);
  if (args.reason?.trim())
    trailers.push(`Memory-Reason: ${oneLine(shownControls(args.reason.replace(/\r\n?/g, '\n')))}`);
  return `${oneLine(first ?? '')}\n\n${body ? `${body}\n\n` : ''}${trailers.join('\n')}\n`;
}

const TRAILER = /^([A-Za-z0-9][A-Za-z0-9-]*):\s?(.*)$/;

/** Take a commit message apart; tolerant of any message, gitmem's or not. */
export function parseMessage(message: string): ParsedMessage {
  const lines = message.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const summary = (lines[0] ?? '').trim();
  // The trailer block is the last paragraph when every line in it is `Key: value`.
  let start = lines.length;
  while (start > 1 && lines[start - 1]!.trim() !== '') start--;
  const block = lines.slice(start);
  const isTrailers = start > 1 && block.length > 0 && block.every((l) => TRAILER.test(l));
  const trailers = isTrailers
    ? block.map((l) => TRAILER.exec(l)!).map((m) => ({ key: m[1]!, value: m[2]!.trim() }))
    : [];
  const bodyLines = lines.slice(1, isTrailers ? start : lines.length);
  const body = bodyLines.join('\n').trim();
  const changes: MemoryChangeTrailer[] = [];
  let cur: { op?: MemoryOp; path?: string; kind?: string; id?: string } | undefined;
  const flush = () => {
    if (cur?.op && (cur.path || cur.id))
      changes.push({
        op: cur.op,
        path: cur.path ?? '',
        ...(cur.kind ? { kind: cur.kind } : {}),
        ...(cur.id ? { id: cur.id } : {}),
      });
    cur = undefined;
  };
  let reason: string | undefined;
  for (const t of trailers) {
    const key = t.key.toLowerCase();
    if (key === 'memory-op') {
      flush();
      const v = t.value.toLowerCase();
      cur = { op: v === 'add' || v === 'delete' ? v : 'update' };
    } else if (key === 'memory-path' && cur) cur.path = unquotedValue(t.value);
    else if (key === 'memory-kind' && cur) cur.kind = unquotedValue(t.value);
    else if (key === 'memory-id' && cur) cur.id = unquotedValue(t.value);
    else if (key === 'memory-reason') reason = t.value;
  }
  flush();
  return { summary, body, trailers, changes, ...(reason !== undefined ? { reason } : {}) };
}
