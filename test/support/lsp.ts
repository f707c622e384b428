// LSP test support: the real language server and a protocol client over an in-memory stream pair
// (in-process, no sleeps: wait for notifications), and a client for a spawned server process.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node.js';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node.js';
import { discoverWorkspace } from '../../src/platform/discover.js';
import { createIndexStorage } from '../../src/platform/index-storage.js';
import { createNodeFs } from '../../src/platform/node-fs.js';
import {
  ReadyNotification,
  StatusNotification,
  type ReadyParams,
  type StatusParams,
} from '../../src/protocol/requests.js';
import {
  createLanguageServer,
  type LanguageServer,
  type ServerDeps,
  type WorkspacePlatform,
} from '../../src/server/server.js';
import { CLI, tempDir } from './fixtures.js';

export const CAPABILITIES: ClientCapabilities = {
  workspace: {
    didChangeWatchedFiles: { dynamicRegistration: true },
    workspaceEdit: { documentChanges: true, resourceOperations: ['create'] },
  },
  textDocument: { publishDiagnostics: { versionSupport: true } },
  window: { workDoneProgress: false },
};

/** Collects what the server pushes: diagnostics per URI (latest), statuses, log lines, registrations. */
export class Inbox {
  readonly diagnostics = new Map<string, PublishDiagnosticsParams>();
  readonly statuses: StatusParams[] = [];
  readonly logs: string[] = [];
  readonly registrations: unknown[] = [];
  ready: ReadyParams | undefined;
  readonly #waiters: { test: () => boolean; resolve: () => void }[] = [];

  constructor(conn: ProtocolConnection) {
    conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.diagnostics.set(p.uri, p);
      this.#check();
    });
    conn.onNotification(StatusNotification, (p) => {
      this.statuses.push(p);
      this.#check();
    });
    conn.onNotification(ReadyNotification, (p) => {
      this.ready = p;
      this.#check();
    });
    conn.onNotification('window/logMessage', (p: { message: string }) => {
      this.logs.push(p.message);
      this.#check();
    });
    conn.onRequest('client/registerCapability', (p: unknown) => {
      this.registrations.push(p);
      return null;
    });
    conn.onRequest('window/workDoneProgress/create', () => null);
    conn.onNotification('$/progress', () => undefined);
  }

  /** Re-check the waiters (for conditions on state outside the protocol, such as stderr). */
  poke(): void {
    this.#check();
  }

  #check(): void {
    for (const w of [...this.#waiters]) {
      if (w.test()) {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  }

  /** Resolve when `test()` holds (checked now and on every message); reject after `ms`. */
  until(test: () => boolean, what: string, ms = 20_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(w), 1);
        reject(new Error(`timed out after ${ms} ms waiting for ${what}; logs:\n${this.logs.join('\n')}`));
      }, ms);
      const w = {
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      this.#waiters.push(w);
    });
  }

  diagnosticsFor(uri: string) {
    return this.diagnostics.get(uri)?.diagnostics ?? [];
  }
}

export interface LspPair {
  readonly root: string;
  readonly client: ProtocolConnection;
  readonly server: LanguageServer;
  readonly inbox: Inbox;
  uri(rel: string): string;
  /** initialize + initialized; resolves when `gitmem/ready` arrived (unless `wait: false`). */
  start(options?: {
    wait?: boolean;
    initializationOptions?: unknown;
    capabilities?: ClientCapabilities;
  }): Promise<{ result: any }>;
  open(rel: string, text?: string): Promise<void>;
  change(rel: string, version: number, text: string): Promise<void>;
  close(): Promise<void>;
}

/** Node platform objects for `root`, with derived state in a temp folder and the given model folder. */
export function testPlatform(
  root: string,
  options: {
    modelDir?: string;
    wrapFs?: (fs: ReturnType<typeof createNodeFs>) => ReturnType<typeof createNodeFs>;
  } = {},
) {
  const indexDir = join(tempDir('gitmem-lsp-idx-'), 'index');
  return async (folder: string): Promise<WorkspacePlatform> => {
    const found = discoverWorkspace(folder, folder);
    const base = createNodeFs(found.root);
    return {
      fs: options.wrapFs ? options.wrapFs(base) : base,
      openStorage: () => createIndexStorage(indexDir),
      ...(found.gitdir ? { gitdir: found.gitdir } : {}),
      workTree: found.workTree,
      ...(options.modelDir ? { defaultModelDir: options.modelDir } : {}),
    };
  };
}

/**
 * The real server (createLanguageServer) and a protocol client over two in-memory streams.
 * `deps.openWorkspace` defaults to {@link testPlatform} (no embedding model: keyword recall).
 */
export function createLspPair(root: string, deps: Partial<ServerDeps> & { modelDir?: string } = {}): LspPair {
  const up = new PassThrough();
  const down = new PassThrough();
  const serverConn = createConnection(ProposedFeatures.all, new StreamMessageReader(up), new StreamMessageWriter(down));
  const server = createLanguageServer(serverConn, {
    openWorkspace: deps.openWorkspace ?? testPlatform(root, deps.modelDir ? { modelDir: deps.modelDir } : {}),
    reindexDelayMs: deps.reindexDelayMs ?? 50,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  serverConn.listen();
  const client = createProtocolConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  const inbox = new Inbox(client);
  client.listen();
  const uri = (rel: string) => pathToFileURL(join(root, rel)).href;
  const versions = new Map<string, number>();
  return {
    root,
    client,
    server,
    inbox,
    uri,
    async start(options = {}) {
      const result = await client.sendRequest('initialize', {
        processId: null,
        rootUri: pathToFileURL(root).href,
        workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'ws' }],
        capabilities: options.capabilities ?? CAPABILITIES,
        initializationOptions: options.initializationOptions ?? {},
      });
      await client.sendNotification('initialized', {});
      if (options.wait !== false)
        await inbox.until(
          () => inbox.ready !== undefined || inbox.statuses.some((s) => s.state === 'error'),
          'gitmem/ready',
        );
      return { result };
    },
    async open(rel, text) {
      const body = text ?? readFileSync(join(root, rel), 'utf8');
      versions.set(rel, 1);
      await client.sendNotification('textDocument/didOpen', {
        textDocument: { uri: uri(rel), languageId: 'markdown', version: 1, text: body },
      });
    },
    async change(rel, version, text) {
      versions.set(rel, version);
      await client.sendNotification('textDocument/didChange', {
        textDocument: { uri: uri(rel), version },
        contentChanges: [{ text }],
      });
    },
    async close() {
      await client.sendRequest('shutdown').catch(() => undefined);
      await server.dispose();
      client.dispose();
      serverConn.dispose();
    },
  };
}

/** Write a file (creating folders): test/support/fixtures.ts's, for the LSP tests that import it from here. */
export { write } from './fixtures.js';

/** A server process speaking LSP over stdio, with every stdout byte kept for B28 checks. */
export interface SpawnedServer {
  readonly child: ChildProcess;
  readonly client: ProtocolConnection;
  readonly inbox: Inbox;
  stdout(): Buffer;
  stderr(): string;
  exited(): Promise<number | null>;
  kill(): void;
}

/** The built CLI's `gitmem lsp --stdio` in `root`, with no model (a folder in `root` that does not exist). */
export function spawnCliServer(root: string): SpawnedServer {
  return spawnServer([process.execPath, CLI, 'lsp', '--stdio'], {
    cwd: root,
    env: { GITMEM_MODEL_DIR: join(root, 'no-model') },
  });
}

/** Spawn `command` and connect a protocol client to its stdio. */
export function spawnServer(
  command: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): SpawnedServer {
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  let err = '';
  const tee = new PassThrough();
  child.stdout!.on('data', (d: Buffer) => {
    chunks.push(d);
    tee.write(d);
  });
  const client = createProtocolConnection(new StreamMessageReader(tee), new StreamMessageWriter(child.stdin!));
  const inbox = new Inbox(client);
  child.stderr!.on('data', (d) => {
    err += d;
    inbox.poke();
  });
  client.listen();
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return {
    child,
    client,
    inbox,
    stdout: () => Buffer.concat(chunks),
    stderr: () => err,
    exited: () => exit,
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * The handshake a client makes with a spawned server: `initialize` for the workspace folder `root`
 * (process id, root URI, one workspace folder, `capabilities`: {@link CAPABILITIES} unless told), then `initialized`.
 * @returns the server's InitializeResult.
 */
export async function initializeSpawned(
  s: SpawnedServer,
  root: string,
  capabilities: object = CAPABILITIES,
): Promise<any> {
  const result = await s.client.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'ws' }],
    capabilities,
  });
  await s.client.sendNotification('initialized', {});
  return result;
}

/**
 * Split a stdout capture into LSP frames. @throws when any byte is not part of a well-formed
 * `Content-Length` frame holding JSON-RPC 2.0.
 */
export function parseFrames(buf: Buffer): any[] {
  const out: any[] = [];
  let i = 0;
  while (i < buf.length) {
    const headerEnd = buf.indexOf('\r\n\r\n', i);
    if (headerEnd < 0) throw new Error(`stray bytes at ${i}: ${JSON.stringify(buf.subarray(i, i + 80).toString())}`);
    const header = buf.subarray(i, headerEnd).toString('ascii');
    const m = /^Content-Length: (\d+)(\r\nContent-Type: [^\r\n]+)?$/i.exec(header);
    if (!m) throw new Error(`bad header at ${i}: ${JSON.stringify(header.slice(0, 80))}`);
    const len = Number(m[1]);
    const body = buf.subarray(headerEnd + 4, headerEnd + 4 + len);
    if (body.length !== len) throw new Error(`truncated frame at ${i}`);
    const msg = JSON.parse(body.toString('utf8'));
    if (msg.jsonrpc !== '2.0') throw new Error(`not JSON-RPC 2.0 at ${i}`);
    out.push(msg);
    i = headerEnd + 4 + len;
  }
  return out;
}
