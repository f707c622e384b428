// Start serving one-shot calls from a long-lived process (`gitmem watch`, the language server, the
// MCP server): the endpoint of the workspace's derived-state folder, the handler, the listener.
// deps: host, service, core.
import type { MemoryFs } from '../core/ports.js';
import type { Memory } from '../service/memory.js';
import { hostEndpoint } from './endpoint.js';
import { createHostHandler } from './handler.js';
import type { HostKind } from './protocol.js';
import { startHostServer } from './server.js';

export interface ServeOptions {
  readonly memory: Memory;
  readonly kind: HostKind;
  /** The files as a cold call reads them (the language server passes the disk, not its overlay). */
  readonly diskFs: MemoryFs;
  /** Extra reason to decline a call right now, or null. */
  readonly declines?: () => Promise<string | null> | string | null;
  /** Told when a one-shot call (not a `ping`) arrives, before it is answered: `gitmem watch --idle-exit` counts idle time from it. */
  readonly onCall?: () => void;
}

/** A running host socket. */
export interface OneShotHost {
  readonly path: string;
  close(): Promise<void>;
}

/**
 * Listen for one-shot CLI calls on the workspace's host socket.
 * @returns the host, or `{ refused }` with the reason this process does not serve (another host
 * already does, the socket path is not ours, no usable path); the process works on either way.
 */
export async function serveOneShotCalls(options: ServeOptions): Promise<OneShotHost | { refused: string }> {
  const endpoint = hostEndpoint(options.memory.storage.location);
  if (!endpoint) return { refused: 'no socket path is short enough for this workspace' };
  const handler = createHostHandler(options);
  try {
    const onCall = options.onCall;
    return await startHostServer({
      endpoint,
      handle: (req) => {
        if (req.op !== 'ping') onCall?.();
        return handler.handle(req);
      },
    });
  } catch (e) {
    return { refused: `cannot serve one-shot calls: ${(e as Error)?.message ?? String(e)}` };
  }
}
