// The CLI's side of "a running host answers one-shot calls": find the host socket of the workspace
// (the same derived-state folder the cold path would open), ask it, and fall back to the cold path
// on any refusal, stale socket or timeout (with GITMEM_HOST_AUTOSTART, after starting a host for the
// next calls: cli/host-autostart.ts). `--no-host` or GITMEM_NO_HOST=1 skips it. Also the `host`
// section of `doctor`. Kept light (node:*, host client, workspace discovery) so a slim entry can ask a
// host before loading the rest of the CLI; the serving half is cli/host-start.ts.
// deps: host (client, endpoint, protocol types), cli (state-dir), core (errors), platform (listing-prefetch).
import { MemoryError, type MemoryErrorCode } from '../core/errors.js';
import { askHost, endpointRefusal, timeoutsFromEnv } from '../host/client.js';
import { hostEndpoint, type HostEndpoint } from '../host/endpoint.js';
import { prefetchedDigest } from '../platform/listing-prefetch.js';
import type { HostInfo, HostKind, HostOp } from '../host/protocol.js';
import { envFlag } from './env-flag.js';
import { autostartHost, autostartOn } from './host-autostart.js';
import { workspaceStateDir } from './state-dir.js';

/** Set (on globalThis: another bundle of this process reads it) once the host client bundle asked the host. */
const HOST_ASKED = Symbol.for('gitmem.host-asked');

/**
 * Record that this process asked its host already (cli/host-first.ts, which said why it runs cold
 * with --debug): {@link callHost} then goes cold without asking again.
 */
export function markHostAsked(): void {
  (globalThis as Record<symbol, unknown>)[HOST_ASKED] = true;
}

/** Why this call does not ask a host (`--no-host`, GITMEM_NO_HOST=1), or undefined. */
function hostOptOut(flag: boolean | undefined): string | undefined {
  if (flag === false) return '--no-host was given';
  if (envFlag('GITMEM_NO_HOST')) return 'GITMEM_NO_HOST is set';
  return undefined;
}

/** The workspace root and host endpoint a call from here would use, or why there is none. */
function locateHost(
  dir: string | undefined,
): { root: string; stateDir: string; endpoint: HostEndpoint } | { none: string } {
  try {
    const { root, stateDir } = workspaceStateDir(dir);
    const endpoint = hostEndpoint(stateDir);
    return endpoint ? { root, stateDir, endpoint } : { none: 'no socket path is short enough for this workspace' };
  } catch (e) {
    return { none: (e as Error).message };
  }
}

/** With `--debug`, a call says on stderr which path answered it (a host, or cold and why): the `report` of {@link callHost}. */
export function hostReport(g: { readonly debug?: boolean | undefined }): ((line: string) => void) | undefined {
  return g.debug === true ? (line: string) => void process.stderr.write(`gitmem: ${line}\n`) : undefined;
}

/**
 * Ask the workspace's host to run a read operation. `report` (the CLI passes it with `--debug`)
 * hears one line saying which path the call took and why.
 * @returns `{ result, host }` when the host answered, undefined when the call must run cold.
 * @throws MemoryError when the host ran the operation and it failed (the same error a cold call gives).
 */
export async function callHost(
  dir: string | undefined,
  noHostFlag: boolean | undefined,
  op: Exclude<HostOp, 'ping'>,
  args: Record<string, unknown>,
  report: (line: string) => void = () => undefined,
): Promise<{ result: unknown; host: HostInfo } | undefined> {
  const cold = (why: string) => {
    report(`${op} runs cold: ${why}`);
    return undefined;
  };
  // Asked once per process: the host client bundle reported why this call runs cold.
  if ((globalThis as Record<symbol, unknown>)[HOST_ASKED] === true) return undefined;
  const optOut = hostOptOut(noHostFlag);
  if (optOut) return cold(optOut);
  const where = locateHost(dir);
  if ('none' in where) return cold(where.none);
  // The listing the process entry started (cli/entry.ts): a host whose last clean walk listed the
  // same answers without walking again.
  const listing = op === 'get' ? undefined : await prefetchedDigest(where.root);
  const res = await askHost(
    where.endpoint,
    { op, root: where.root, args, ...(listing ? { listing } : {}) },
    timeoutsFromEnv(),
  );
  if ('fallback' in res) {
    // No host answers: GITMEM_HOST_AUTOSTART starts one for the next calls (this one runs cold).
    const started = autostartHost(where.root, where.stateDir);
    return cold('pid' in started ? `${res.fallback}; started a host (pid ${started.pid})` : res.fallback);
  }
  const r = res.reply;
  if ('declined' in r) return cold(`the host declined: ${r.declined}`);
  report(`${op} answered by the ${r.host.kind} host (pid ${r.host.pid}) at ${where.endpoint.path}`);
  if (r.ok) return { result: r.result, host: r.host };
  throw new MemoryError(r.error.code as MemoryErrorCode, r.error.message, {
    ...(r.error.hint ? { hint: r.error.hint } : {}),
    ...(r.error.data ? { data: r.error.data } : {}),
  });
}

/** `doctor`'s host section: is a host listening, and which path a read call would take now. */
export interface HostStatus {
  readonly listening: boolean;
  readonly kind: HostKind | null;
  readonly pid: number | null;
  readonly endpoint: string | null;
  /** `host` when a recall or get from here would be answered by the host, else `cold`. */
  readonly path: 'host' | 'cold';
  /** Why the path is cold (null when it is the host). */
  readonly reason: string | null;
  /** GITMEM_HOST_AUTOSTART is on: a cold call starts a host (cli/host-autostart.ts). */
  readonly autostart: boolean;
}

export async function hostStatus(dir: string | undefined, noHostFlag: boolean | undefined): Promise<HostStatus> {
  const where = locateHost(dir);
  const endpoint = 'none' in where ? null : where.endpoint.path;
  const autostart = autostartOn();
  const base = { listening: false, kind: null, pid: null, endpoint, path: 'cold' as const, autostart };
  if ('none' in where) return { ...base, reason: where.none };
  const refusal = endpointRefusal(where.endpoint);
  if (refusal) return { ...base, reason: refusal };
  const res = await askHost(where.endpoint, { op: 'ping', root: where.root, args: {} }, timeoutsFromEnv());
  if ('fallback' in res) return { ...base, reason: res.fallback };
  const host = res.reply.host;
  const listening = { listening: true, kind: host?.kind ?? null, pid: host?.pid ?? null, endpoint, autostart };
  const optOut = hostOptOut(noHostFlag);
  if (!res.reply.ok)
    return { ...listening, path: 'cold', reason: 'declined' in res.reply ? res.reply.declined : 'the host refused' };
  if (host?.declines) return { ...listening, path: 'cold', reason: host.declines };
  if (optOut) return { ...listening, path: 'cold', reason: optOut };
  return { ...listening, path: 'host', reason: null };
}
