// The language server as the LSP benches run it: `node [nodeArgs] <cli> lsp --stdio` in a workspace,
// stderr inherited, with a protocol connection over its stdio (not listening yet: the bench adds its
// handlers first).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node.js';

/** Start the server of `cli` in `root`, `env` added to this process's environment. */
export function spawnLsp(
  cli: string,
  root: string,
  env: Record<string, string>,
  nodeArgs: readonly string[] = [],
): { child: ChildProcessByStdio<Writable, Readable, null>; conn: ProtocolConnection } {
  const child = spawn(process.execPath, [...nodeArgs, cli, 'lsp', '--stdio'], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const tee = new PassThrough();
  child.stdout.pipe(tee);
  const conn = createProtocolConnection(new StreamMessageReader(tee), new StreamMessageWriter(child.stdin));
  return { child, conn };
}
