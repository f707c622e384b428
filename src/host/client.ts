// The calling half: ask the host of a workspace one question, or say why the call must run cold.
// Never throws and never waits longer than its timeouts: no socket, a stale socket (connection
// refused), a path that is not ours, a silent or slow host, a malformed or oversized reply all
// give `{ fallback }`. deps: host (protocol, endpoint), node:*.
import { dirname } from 'node:path';
import { connect } from 'node:net';
import { checkSocketDir, inspectSocket, type HostEndpoint } from './endpoint.js';
import {
  encodeLine,
  HOST_PROTOCOL_VERSION,
  LineReader,
  MAX_REPLY_BYTES,
  type HostReply,
  type HostRequest,
} from './protocol.js';

export interface AskOptions {
  /** Give up connecting after this long (ms). Default 250. */
  readonly connectTimeoutMs?: number;
  /**
   * Give up on the whole call (connect, queue, freshness check, answer) after this long (ms) and run
   * cold. Default 4000: a little above the host's own request deadline (3000 ms, server.ts), so a
   * busy host normally says "declined" first and a stopped or hung one is cut off here.
   */
  readonly timeoutMs?: number;
}

/** The client's bound on one host call (ms); see {@link AskOptions.timeoutMs}. */
const DEFAULT_CALL_TIMEOUT_MS = 4000;

export type AskResult = { readonly reply: HostReply } | { readonly fallback: string };

/** Timeouts from `GITMEM_HOST_TIMEOUT_MS` / `GITMEM_HOST_CONNECT_MS` when set to positive integers. */
export function timeoutsFromEnv(env: NodeJS.ProcessEnv = process.env): AskOptions {
  const n = (v: string | undefined) => (v && /^\d+$/.test(v) && Number(v) > 0 ? Number(v) : undefined);
  const t = n(env.GITMEM_HOST_TIMEOUT_MS);
  const c = n(env.GITMEM_HOST_CONNECT_MS);
  return { ...(t ? { timeoutMs: t } : {}), ...(c ? { connectTimeoutMs: c } : {}) };
}

/** Is a socket there that we may connect to? @returns the reason not, or undefined. */
export function endpointRefusal(endpoint: HostEndpoint): string | undefined {
  if (endpoint.kind !== 'unix') return undefined;
  const dirWhy = checkSocketDir(endpoint.dir ?? dirname(endpoint.path));
  if (dirWhy) return dirWhy;
  const at = inspectSocket(endpoint.path);
  if (at.state === 'absent') return 'no host is listening (no socket)';
  if (at.state === 'refused') return at.reason;
  return undefined;
}

/** Send `request` to the host at `endpoint` and read its one reply. */
export function askHost(
  endpoint: HostEndpoint,
  request: Omit<HostRequest, 'v'>,
  options: AskOptions = {},
): Promise<AskResult> {
  const refusal = endpointRefusal(endpoint);
  if (refusal) return Promise.resolve({ fallback: refusal });
  const connectMs = options.connectTimeoutMs ?? 250;
  const totalMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  return new Promise<AskResult>((resolve) => {
    let settled = false;
    const socket = connect(endpoint.path);
    const finish = (r: AskResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      socket.destroy();
      resolve(r);
    };
    const connectTimer = setTimeout(() => finish({ fallback: `no connection within ${connectMs} ms` }), connectMs);
    const totalTimer = setTimeout(() => finish({ fallback: `the host did not answer within ${totalMs} ms` }), totalMs);
    socket.once('error', (e: NodeJS.ErrnoException) =>
      finish({
        fallback:
          e.code === 'ECONNREFUSED'
            ? 'stale socket: the host that made it is gone (connection refused)'
            : e.code === 'ENOENT'
              ? 'no host is listening (no socket)'
              : `cannot reach the host: ${e.message}`,
      }),
    );
    socket.once('connect', () => {
      clearTimeout(connectTimer);
      socket.write(encodeLine({ v: HOST_PROTOCOL_VERSION, ...request }));
    });
    const reader = new LineReader(MAX_REPLY_BYTES);
    socket.on('data', (chunk: Buffer) => {
      let line: string | undefined;
      try {
        line = reader.push(chunk);
      } catch {
        return finish({ fallback: `the host's reply is longer than ${MAX_REPLY_BYTES} bytes` });
      }
      if (line === undefined) return;
      let reply: HostReply;
      try {
        reply = JSON.parse(line) as HostReply;
      } catch {
        return finish({ fallback: "the host's reply is not JSON" });
      }
      if (!reply || typeof reply !== 'object' || reply.v !== HOST_PROTOCOL_VERSION || typeof reply.ok !== 'boolean')
        return finish({ fallback: `the host speaks another protocol version` });
      finish({ reply });
    });
    socket.once('end', () => finish({ fallback: 'the host closed the connection without an answer' }));
  });
}
