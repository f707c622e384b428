// Notifications to the client, which may be gone: a client that closed the connection (or an
// editor that quit mid-update) makes vscode-jsonrpc throw "Connection is disposed" synchronously
// from sendNotification / sendDiagnostics, before any promise exists to catch. An index update that
// finished after the close then rejected with nobody awaiting it (an unhandled rejection, which ends
// a Node process). The one owner of "tell the client, if it is still there". deps: none.

/**
 * Run `send` (one notification or log message to the client) and drop a failure, thrown or rejected:
 * a message to a client that is gone has nobody to reach, and the server's own state is already
 * updated. Logging through it never throws into the code that logs.
 */
export function toClient(send: () => Promise<void> | void): void {
  try {
    const sent = send();
    if (sent) void sent.catch(() => undefined);
  } catch {
    // The connection is closed or disposed: nothing to tell.
  }
}
