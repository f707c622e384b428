// The service side of a host: answers `ping`, `recall`, `get` and `context` for the workspace a long-lived
// process holds, after the same stat walk a cold call makes (Memory.refresh; none when the caller's
// listing digest shows that nothing changed since the last clean walk), and declines — so the
// caller runs cold — whenever its answer could differ from a cold one: another workspace root,
// gitmem.config.json or the detected layout changed since the host loaded them, or the host says
// so (the language server with unsaved editor text). Only read operations exist here.
// deps: service (memory, load, recall types), core, host (protocol).
import { resolve } from 'node:path';
import { isMemoryError } from '../core/errors.js';
import type { MemoryFs } from '../core/ports.js';
import { loadConfig } from '../engine/load/load.js';
import { taskContext } from '../service/ace/knowledge-queries.js';
import type { Memory } from '../service/memory.js';
import { get } from '../service/files/get.js';
import { recall } from '../service/recall/recall.js';
import { recallOptionsOf } from '../service/recall/request.js';
import { HOST_PROTOCOL_VERSION, type HostInfo, type HostKind, type HostReply, type HostRequest } from './protocol.js';

export interface HostHandlerDeps {
  readonly memory: Memory;
  readonly kind: HostKind;
  /** The workspace's files as a cold call reads them (not an editor overlay). */
  readonly diskFs: MemoryFs;
  /** Extra reason to decline right now (e.g. unsaved editor buffers), or null. */
  readonly declines?: () => Promise<string | null> | string | null;
}

export interface HostHandler {
  info(): Promise<HostInfo>;
  handle(req: HostRequest): Promise<HostReply>;
}

/** A JSON value as an object of fields (anything else: no fields). */
const objectOf = (raw: unknown): Record<string, unknown> =>
  raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};

/** `gitmem context`'s limit and budget from a request (anything else is left out). */
function contextOptionsOf(args: Readonly<Record<string, unknown>>): { limit?: number; budget?: number } {
  return {
    ...(typeof args.limit === 'number' ? { limit: args.limit } : {}),
    ...(typeof args.budget === 'number' ? { budget: args.budget } : {}),
  };
}

/** The caller's listing digest when the request carries one that looks like a SHA-256 digest. */
function listingOf(req: HostRequest): { listing?: string } {
  return typeof req.listing === 'string' && /^[0-9a-f]{64}$/.test(req.listing) ? { listing: req.listing } : {};
}

export function createHostHandler(deps: HostHandlerDeps): HostHandler {
  const { memory } = deps;
  const root = resolve(memory.root);
  const loadedKey = JSON.stringify([memory.loaded.layout.name, memory.config]);

  async function declines(): Promise<string | null> {
    try {
      const now = await loadConfig(deps.diskFs);
      if (JSON.stringify([now.layout.name, now.config]) !== loadedKey)
        return 'gitmem.config.json or the detected layout changed since the host started';
    } catch (e) {
      return `the configuration does not load now: ${(e as Error).message}`;
    }
    return (await deps.declines?.()) ?? null;
  }

  const infoWith = (why: string | null): HostInfo => ({ kind: deps.kind, pid: process.pid, root, declines: why });

  return {
    async info() {
      return infoWith(await declines());
    },
    async handle(req) {
      const v = HOST_PROTOCOL_VERSION;
      if (resolve(req.root) !== root)
        return { v, ok: false, declined: `this host serves ${root}, not ${req.root}`, host: infoWith(null) };
      const why = await declines();
      const host = infoWith(why);
      if (req.op === 'ping') return { v, ok: true, host, result: host };
      if (why) return { v, ok: false, declined: why, host };
      try {
        if (req.op === 'recall') {
          const query = req.args.query;
          if (typeof query !== 'string') return { v, ok: false, declined: 'recall without a query string', host };
          await memory.refresh(listingOf(req));
          return {
            v,
            ok: true,
            host,
            result: await recall(memory.context, query, recallOptionsOf('host', objectOf(req.args.options))),
          };
        }
        if (req.op === 'context') {
          const task = req.args.task;
          if (typeof task !== 'string') return { v, ok: false, declined: 'context without a task string', host };
          await memory.refresh(listingOf(req));
          return {
            v,
            ok: true,
            host,
            result: await taskContext(memory.context, { task, ...contextOptionsOf(req.args) }),
          };
        }
        const ref = req.args.ref;
        if (typeof ref !== 'string') return { v, ok: false, declined: 'get without a ref string', host };
        return { v, ok: true, host, result: await get(memory.context, { ref }) };
      } catch (e) {
        if (isMemoryError(e)) {
          const j = e.toJSON();
          return {
            v,
            ok: false,
            host,
            error: {
              code: j.code,
              message: j.message,
              ...(j.hint ? { hint: j.hint } : {}),
              ...(j.data ? { data: j.data } : {}),
            },
          };
        }
        return { v, ok: false, declined: `host failed: ${(e as Error)?.message ?? String(e)}`, host };
      }
    },
  };
}
