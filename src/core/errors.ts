// Typed operational errors with stable codes. User-content problems are Diagnostics, not errors.
// Imports nothing from npm, and from the project only core/secret-mask.ts (pure; its imports never
// reach this file), so an error message masks a credential in a value it repeats (R144).
import { maskName } from './secret-mask.js';

/** Stable error codes; tests assert these, never message text. */
export type MemoryErrorCode =
  | 'path.invalid'
  | 'path.outside-root'
  | 'path.not-memory'
  /** A write to a path that would be memory but an `ignore` glob of the config covers. */
  | 'path.ignored'
  | 'fs.not-found'
  | 'fs.read-failed'
  | 'fs.write-failed'
  | 'fs.too-large'
  /** A write would replace the text of a file whose bytes are not valid UTF-8 (nothing written). */
  | 'fs.not-utf8'
  /** A FIFO, socket, device or folder where a file was expected (never read). */
  | 'fs.not-regular'
  /** Optimistic concurrency: the file changed since it was read (expected content hash differs). */
  | 'fs.conflict'
  | 'config.invalid'
  | 'workspace.not-found'
  | 'index.corrupt'
  | 'index.write-failed'
  | 'query.empty'
  | 'query.invalid'
  | 'entry.not-found'
  | 'entry.invalid'
  | 'usage'
  | 'git.not-a-repository'
  | 'embedder.unavailable'
  | 'git.merge-in-progress'
  | 'git.busy'
  | 'git.bad-revision'
  | 'git.not-found'
  | 'git.secrets-found'
  | 'git.conflict-markers'
  /** A command would commit a file that also holds someone's uncommitted edits. */
  | 'git.uncommitted-edits'
  /** A write would put a suspected credential into a file (its text, name or id). */
  | 'secret.found'
  /** A write would add a line marked `gitmem:allow-instruction` that reads as an instruction without the mark. */
  | 'injection.marked'
  | 'git.corrupt'
  | 'git.failed'
  /** The system git binary is missing (sync, merges). */
  | 'git.unavailable'
  /** Uncommitted work that a sync would have to touch: nothing was changed. */
  | 'git.dirty'
  /** A merge with true conflicts: nothing was changed. */
  | 'git.conflict'
  /** The remote refused the push (it moved meanwhile, or refused the branch). */
  | 'git.push-rejected'
  /** No remote or upstream branch to sync with. */
  | 'git.no-remote'
  /** The git index cannot be read (neither isomorphic-git nor the system git). */
  | 'git.index-unreadable'
  /** A memory folder is a symbolic link: git would store the link, not the files behind it. */
  | 'git.linked-folder'
  /** Memory files changed inside a nested repository or submodule: its own git commits them, not this one. */
  | 'git.nested-repository'
  /** A bare repository: no work tree to read memory from or write it to. */
  | 'git.bare-repository'
  /** A revision this shallow clone does not hold. */
  | 'git.shallow'
  /** A folder with no gitmem markers outside any git work tree, or the home folder or `/` never set up. */
  | 'workspace.not-a-workspace'
  | 'internal';

/**
 * An operational failure with a stable {@link MemoryErrorCode}, optional structured `data`,
 * the public API that raised it (`caller`) and a `hint` the CLI prints under the message.
 */
export class MemoryError extends Error {
  readonly code: MemoryErrorCode;
  readonly data: Readonly<Record<string, unknown>> | undefined;
  readonly hint: string | undefined;
  caller: string | undefined;

  constructor(
    code: MemoryErrorCode,
    message: string,
    options: { data?: Record<string, unknown>; hint?: string; cause?: unknown; caller?: string } = {},
  ) {
    // Message and hint name files, ids and values from memory or input: masked once, here, so no
    // surface (CLI, MCP, the language server, hosts) shows a credential in an error (R144).
    super(maskName(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MemoryError';
    this.code = code;
    this.data = options.data;
    this.hint = options.hint === undefined ? undefined : maskName(options.hint);
    this.caller = options.caller;
  }

  toJSON(): { code: MemoryErrorCode; message: string; hint?: string; data?: Record<string, unknown>; caller?: string } {
    return {
      code: this.code,
      message: this.message,
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      ...(this.data === undefined ? {} : { data: maskedData(this.data) as Record<string, unknown> }),
      ...(this.caller === undefined ? {} : { caller: this.caller }),
    };
  }
}

/** An error's `data` as printed (`--json`, MCP): every string in it masked as a name is (R144). */
function maskedData(v: unknown): unknown {
  if (typeof v === 'string') return maskName(v);
  if (Array.isArray(v)) return v.map(maskedData);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskedData(x)]));
  return v;
}

/** @returns true when `e` is a {@link MemoryError} (optionally with the given code). */
export function isMemoryError(e: unknown, code?: MemoryErrorCode): e is MemoryError {
  return e instanceof MemoryError && (code === undefined || e.code === code);
}

/** Longest part of a user's value an error message repeats (UTF-16 code units). */
const SHOWN_MAX = 80;

/**
 * A value the user gave, as an error message shows it: its credentials masked as a name is
 * (core/secret-mask.ts `maskName`, before it is cut, so a cut token is still found: R144), a JSON
 * string literal (so a line break, an escape sequence or another control character appears escaped,
 * never raw on the terminal), its first 80 code units only, with `…` and the full length when it was
 * longer.
 * @returns e.g. `"12\nx"`, `"ghp_…[redacted: GitHub token]"`, or `"aaaa…" (2000 chars)`.
 */
export function shownValue(value: string): string {
  const s = maskName(String(value));
  if (s.length <= SHOWN_MAX) return JSON.stringify(s);
  return `${JSON.stringify(s.slice(0, SHOWN_MAX))}… (${s.length} chars)`;
}

/**
 * JSON.parse's complaint without the input it quotes. V8 repeats up to a line of the text around an
 * unexpected character (`Unexpected token 'A', "AKIAIOSFODNN7EXAMPLE" is not valid JSON`), which put a
 * piped file's credential, line break or escape sequence into an error message (H08); the character
 * itself is shown by {@link shownValue}. V8's other messages name only a position and pass as they are.
 * @returns e.g. `unexpected character "A"`, `Unexpected end of JSON input`.
 */
export function jsonParseProblem(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const token = /^Unexpected token '([\s\S]{1,2}?)', [\s\S]*is not valid JSON$/.exec(message);
  if (token) return `unexpected character ${shownValue(token[1]!)}`;
  return message.split(/\r\n|[\n\r\u2028\u2029]/, 1)[0]!;
}
