// The serving half of "a running host answers one-shot calls" for the CLI's long-lived commands
// (`gitmem watch`, `gitmem mcp`); the calling half is cli/host.ts. deps: host (start), platform, cli.
import type { HostKind } from '../host/protocol.js';
import type { OneShotHost } from '../host/start.js';
import type { OpenedWorkspace } from './context.js';

/**
 * Serve one-shot calls from a long-lived command (`watch`, `mcp`) on its opened workspace; `onCall`
 * hears each call as it arrives.
 * @returns the running host, or `{ refused }` (the command works on without it).
 */
export async function startHost(
  opened: OpenedWorkspace,
  kind: HostKind,
  onCall?: () => void,
): Promise<OneShotHost | { refused: string }> {
  // Loaded here, not by the client half: a one-shot call that asks a host loads no service code for it.
  const [{ serveOneShotCalls }, { createNodeFs }] = await Promise.all([
    import('../host/start.js'),
    import('../platform/node-fs.js'),
  ]);
  return serveOneShotCalls({
    memory: opened.memory,
    kind,
    diskFs: createNodeFs(opened.root),
    ...(onCall ? { onCall } : {}),
  });
}
