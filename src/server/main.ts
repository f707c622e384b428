// Language-server process entry: guard stdout (first import), create the connection over stdio,
// send console.* to the client's console, log uncaught errors and keep serving (B29), and build the
// platform objects (the one place besides cli/main.ts and tests that constructs them).
// deps: server, protocol, service (through server.ts), platform, core, vscode-languageserver.
import { guardStdout } from './stdout-guard.js';
import { dirname } from 'node:path';
import {
  createConnection,
  ProposedFeatures,
  StreamMessageReader,
  StreamMessageWriter,
  type Connection,
} from 'vscode-languageserver/node.js';
import { serveOneShotCalls } from '../host/start.js';
import { discoverWorkspace } from '../platform/discover.js';
import { findModelDir } from '../platform/locations.js';
import { nodeWorkspace } from '../platform/node-workspace.js';
import { createChokidarWatcher } from '../platform/watcher.js';
import { workerEmbedderFactory } from '../platform/worker-embedder.js';
import type { InitializationOptions } from '../protocol/requests.js';
import { createLanguageServer, type LanguageServer, type ServerDeps, type WorkspacePlatform } from './server.js';

const SERVER_VERSION = '0.1.0';

/** Build the Node platform objects for a workspace folder (shared index location with the CLI). */
async function openNodeWorkspace(root: string, options: InitializationOptions): Promise<WorkspacePlatform> {
  const found = discoverWorkspace(root, process.cwd());
  const modelDir = options.modelDir ?? findModelDir(process.argv[1] ? dirname(process.argv[1]) : undefined);
  return {
    ...nodeWorkspace(found, { warn: (m) => process.stderr.write(`gitmem: warning: ${m}\n`) }),
    ...(modelDir ? { defaultModelDir: modelDir } : {}),
    // Embedding runs in a worker thread on one core: hover and completion stay fast during a long
    // re-embed (measured in npm run bench: editor latency during a re-embed).
    createEmbedder: workerEmbedderFactory({ threads: 1 }),
    // The watcher `gitmem watch` uses; the server starts it only for a client that registers none.
    createWatcher: (w) => createChokidarWatcher(w),
  };
}

/**
 * Run the language server on this process's stdin/stdout until the client says `exit` or stdin
 * closes. Nothing but protocol messages ever reaches stdout.
 */
export function startServer(): { connection: Connection; server: LanguageServer } {
  const out = guardStdout();
  const connection = createConnection(
    ProposedFeatures.all,
    new StreamMessageReader(process.stdin),
    new StreamMessageWriter(out),
  );
  // From here on console.* reaches the client's log (window/logMessage), never stdout.
  console.log = (...a: unknown[]) => connection.console.log(a.map(String).join(' '));
  console.info = (...a: unknown[]) => connection.console.info(a.map(String).join(' '));
  console.debug = (...a: unknown[]) => connection.console.log(a.map(String).join(' '));
  console.warn = (...a: unknown[]) => connection.console.warn(a.map(String).join(' '));
  console.error = (...a: unknown[]) => connection.console.error(a.map(String).join(' '));
  // B29: one bad file or one failing handler must never take the server down.
  process.on('uncaughtException', (e) => {
    try {
      connection.console.error(`gitmem: uncaught exception (still serving): ${e?.stack ?? e}`);
    } catch {
      process.stderr.write(`gitmem: internal error: uncaught exception: ${e?.stack ?? e}\n`);
    }
  });
  process.on('unhandledRejection', (e) => {
    try {
      connection.console.error(`gitmem: unhandled rejection (still serving): ${(e as Error)?.stack ?? e}`);
    } catch {
      process.stderr.write(`gitmem: internal error: unhandled rejection: ${String(e)}\n`);
    }
  });
  const server: LanguageServer = createLanguageServer(connection, {
    openWorkspace: openNodeWorkspace,
    version: SERVER_VERSION,
    // One-shot CLI calls in this workspace are answered from the session's index (src/host/).
    serveOneShot: async (memory, platform, declines) => {
      const host = await serveOneShotCalls({ memory, kind: 'lsp', diskFs: platform.fs, declines });
      if ('refused' in host) {
        connection.console.info(`gitmem: not answering one-shot calls: ${host.refused}`);
        return undefined;
      }
      connection.console.info(`gitmem: answering one-shot calls at ${host.path}`);
      return host;
    },
  } satisfies ServerDeps);
  // The client going away (stdin closed without `exit`) ends the process too.
  process.stdin.on('end', () => {
    void server.dispose().finally(() => process.exit(0));
  });
  connection.listen();
  return { connection, server };
}
