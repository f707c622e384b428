// The wire format between a one-shot CLI call and a running host (gitmem watch, the language
// server, the MCP server): newline-delimited JSON, one request and one reply per connection, with
// a protocol version and the workspace root in every request. Pure: no I/O. deps: service (the
// recall-request mapper's wire keys, types only at run time).
import { RECALL_WIRE_KEYS } from '../service/recall/request.js';

/** Bumped when a request or reply changes incompatibly; a host answers other versions with `declined`. */
export const HOST_PROTOCOL_VERSION = 1;

/** Longest request line a host reads (bytes, newline excluded); longer ones are refused. */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** Longest reply line a client reads (bytes); a longer reply is dropped and the call runs cold. */
export const MAX_REPLY_BYTES = 32 * 1024 * 1024;

/** Which long-lived process holds the index. */
export type HostKind = 'watch' | 'lsp' | 'mcp';

/** The read operations a host serves. Writes never go through a host. */
export type HostOp = 'ping' | 'recall' | 'get' | 'context';

export interface HostRequest {
  readonly v: number;
  readonly op: HostOp;
  /** The workspace root the caller resolved (absolute, real path); a host of another root declines. */
  readonly root: string;
  /**
   * `recall`: { query, options } (JSON-safe recall options); `get`: { ref }; `context`: { task, limit?,
   * budget? } (`gitmem context`); `ping`: {}.
   */
  readonly args: Readonly<Record<string, unknown>>;
  /**
   * `recall`, `context`: the SHA-256 digest of the listing the caller took of the workspace when it
   * started (platform/listing-prefetch.ts): when it is the one recorded after the last walk that
   * found every file as the index has it, the host answers without its own walk.
   */
  readonly listing?: string;
}

/** What a host says about itself (the `ping` reply, and `doctor`). */
export interface HostInfo {
  readonly kind: HostKind;
  readonly pid: number;
  readonly root: string;
  /** Null when the host would serve a call now, else why not (the call then runs cold). */
  readonly declines: string | null;
}

export type HostReply =
  | { readonly v: number; readonly ok: true; readonly host: HostInfo; readonly result: unknown }
  /** The operation itself failed with a MemoryError: the CLI reports it exactly as the cold path would. */
  | {
      readonly v: number;
      readonly ok: false;
      readonly host: HostInfo;
      readonly error: { code: string; message: string; hint?: string; data?: Record<string, unknown> };
    }
  /** The host will not answer this call (stale config, unsaved editor text, other root, version…): run cold. */
  | { readonly v: number; readonly ok: false; readonly declined: string; readonly host?: HostInfo };

/** Recall options that cross the socket (JSON-safe; `now` as an ISO date string): the recall-request mapper's list. */
export const RECALL_KEYS = RECALL_WIRE_KEYS;

/** The JSON-safe part of recall options, as the CLI sends them. */
export function recallArgs(query: string, options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const k of RECALL_KEYS) if (options[k] !== undefined) o[k] = options[k];
  if (options.now instanceof Date) o.now = options.now.toISOString();
  return { query, options: o };
}

/** One JSON value as one line. */
export function encodeLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/**
 * Collects bytes until the first newline. `push` returns the line once complete, `undefined` while
 * more is needed; throws when `maxBytes` pass without a newline (the peer must be cut off).
 */
export class LineReader {
  readonly #max: number;
  #chunks: Buffer[] = [];
  #size = 0;

  constructor(maxBytes: number) {
    this.#max = maxBytes;
  }

  push(chunk: Buffer): string | undefined {
    const nl = chunk.indexOf(0x0a);
    const take = nl >= 0 ? chunk.subarray(0, nl) : chunk;
    this.#size += take.length;
    if (this.#size > this.#max) throw new Error(`line longer than ${this.#max} bytes`);
    this.#chunks.push(take);
    if (nl < 0) return undefined;
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

/** Parse and shape-check a request line; a string is the reason it is refused. */
export function parseRequest(line: string): HostRequest | string {
  let j: unknown;
  try {
    j = JSON.parse(line);
  } catch {
    return 'request is not JSON';
  }
  if (!j || typeof j !== 'object') return 'request is not an object';
  const r = j as Record<string, unknown>;
  if (r.v !== HOST_PROTOCOL_VERSION) return `protocol version ${String(r.v)} is not ${HOST_PROTOCOL_VERSION}`;
  if (r.op !== 'ping' && r.op !== 'recall' && r.op !== 'get' && r.op !== 'context')
    return `unknown operation ${String(r.op)}`;
  if (typeof r.root !== 'string') return 'request names no workspace root';
  if (!r.args || typeof r.args !== 'object' || Array.isArray(r.args)) return 'request has no arguments object';
  const listing = typeof r.listing === 'string' ? { listing: r.listing } : {};
  return { v: r.v, op: r.op, root: r.root, args: r.args as Record<string, unknown>, ...listing };
}
