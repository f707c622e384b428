// Bad input E15 (docs/bad-inputs.md): a client that has gone (the connection closed or disposed)
// while the server still has work in flight: an index update that finishes after the close sends
// gitmem/status, diagnostics and log messages to nobody. vscode-jsonrpc throws "Connection is
// disposed" synchronously from every send; before src/server/to-client.ts that throw escaped the
// update as an unhandled rejection (seen in a clean-clone run after test/lsp/tags.test.ts closed its
// client). Real vscode-languageserver connection over in-memory streams.
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createConnection,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocuments,
} from 'vscode-languageserver/node.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { systemClock } from '../../../src/core/ports.js';
import { DiagnosticsPublisher } from '../../../src/server/diagnostics.js';
import { ServerStatus } from '../../../src/server/status.js';
import { toClient } from '../../../src/server/to-client.js';

const rejections: unknown[] = [];
const onRejection = (e: unknown) => rejections.push(e);
process.on('unhandledRejection', onRejection);
afterEach(() => {
  rejections.length = 0;
});
/** Node reports unhandled rejections once the microtask queue drains, before the next macrotask. */
const rejectionsReported = () => new Promise<void>((r) => setImmediate(r));

function disposedConnection() {
  const connection = createConnection(
    new StreamMessageReader(new PassThrough()),
    new StreamMessageWriter(new PassThrough()),
  );
  connection.listen();
  connection.dispose();
  return connection;
}

describe('notifications to a client that is gone', () => {
  it('status, diagnostics and log messages after the connection is disposed neither throw nor reject', async () => {
    const connection = disposedConnection();
    // The raw send throws at once: this is what every send met before.
    expect(() => connection.sendNotification('gitmem/status', { state: 'ready' })).toThrow(/disposed/);
    const status = new ServerStatus(connection, systemClock);
    expect(() => status.set({ state: 'ready', message: 'after the close' })).not.toThrow();
    expect(status.state).toMatchObject({ state: 'ready', message: 'after the close' });
    const publisher = new DiagnosticsPublisher(connection, new TextDocuments(TextDocument));
    expect(() => publisher.publishConfigError('/ws', 'bad config')).not.toThrow();
    expect(() => publisher.clearConfigDiagnostic()).not.toThrow();
    expect(() => toClient(() => connection.console.error('late log line'))).not.toThrow();
    await rejectionsReported();
    expect(rejections).toEqual([]);
  });

  it('toClient drops a send that rejects, without an unhandled rejection', async () => {
    toClient(() => Promise.reject(new Error('write after end')));
    await rejectionsReported();
    expect(rejections).toEqual([]);
  });
});
