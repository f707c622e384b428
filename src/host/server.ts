// The listening half of a host: binds the workspace's endpoint (endpoint.ts), replaces a stale
// socket left by a host that died, refuses to serve when another host answers there or the path is
// not ours, and answers one newline-delimited JSON request per connection, one request at a time.
// deps: host (protocol, endpoint), node:*.
import { chmodSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { inspectSocket, preparePrivateDir, type HostEndpoint } from './endpoint.js';
import {
  encodeLine,
  HOST_PROTOCOL_VERSION,
  LineReader,
  MAX_REPLY_BYTES,
  MAX_REQUEST_BYTES,
  parseRequest,
  type HostReply,
  type HostRequest,
} from './protocol.js';

/** How long a request may wait and run in a host before it is declined (ms). */
const DEFAULT_REQUEST_TIMEOUT_MS = 3000;

export interface HostServerOptions {
  readonly endpoint: HostEndpoint;
  /** Answer one request (errors become a `declined` reply). */
  readonly handle: (req: HostRequest) => Promise<HostReply>;
  /** A connection that sends no complete request within this time is closed (ms). Default 10,000. */
  readonly idleMs?: number;
  /** Requests waiting beyond this many are declined as busy. Default 8. */
  readonly maxQueued?: number;
  /**
   * A request not answered this long after it arrived (waiting in the queue included) is declined,
   * and the queue moves on without waiting for its handler (ms). Default 3,000: below the client's
   * own bound (client.ts), so the caller hears "declined" and runs cold at once.
   */
  readonly requestTimeoutMs?: number;
}

export interface HostServer {
  readonly path: string;
  /** Stop listening and remove the socket (when it is still the one this host made). */
  close(): Promise<void>;
}

/** Does something answer at `path`? (A stale socket refuses the connection.) */
function answers(path: string, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    const done = (v: boolean) => {
      clearTimeout(t);
      s.destroy();
      resolve(v);
    };
    const t = setTimeout(() => done(true), timeoutMs); // connected but silent, or slow: someone is there
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen({ path, readableAll: false, writableAll: false }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * Makes `path` free for this host to listen at: nothing there, or a stale socket (left by a host
 * that died: kill -9, a crash) removed, and only while it is still that socket (same inode).
 * @returns why this host may not listen there (not a private socket, another host answers, the
 * unlink failed), or undefined when the path is free.
 */
async function clearStaleSocket(path: string): Promise<string | undefined> {
  const at = inspectSocket(path);
  if (at.state === 'refused') return at.reason;
  if (at.state !== 'socket') return undefined;
  if (await answers(path)) return `another host serves this workspace at ${path}`;
  const again = inspectSocket(path);
  if (again.state !== 'socket' || again.ino !== at.ino) return undefined;
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return (e as Error).message;
  }
  return undefined;
}

/**
 * Listen at `options.endpoint`.
 * @returns the running server, or `{ refused }` saying why this process does not serve (another
 * host answers there; the path is a file, a symbolic link or another user's; the folder is unusable).
 */
export async function startHostServer(options: HostServerOptions): Promise<HostServer | { refused: string }> {
  const { endpoint } = options;
  const idleMs = options.idleMs ?? 10_000;
  const maxQueued = options.maxQueued ?? 8;
  const requestMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  let queue: Promise<unknown> = Promise.resolve();
  let queued = 0;
  const sockets = new Set<Socket>();

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(idleMs, () => socket.destroy());
    const reader = new LineReader(MAX_REQUEST_BYTES);
    let got = false;
    let answered = false;
    const reply = (r: HostReply) => {
      if (answered) return;
      answered = true;
      let line = encodeLine(r);
      if (Buffer.byteLength(line) > MAX_REPLY_BYTES)
        line = encodeLine({
          v: HOST_PROTOCOL_VERSION,
          ok: false,
          declined: 'the reply is too large for the host socket',
        });
      if (!socket.destroyed) socket.end(line);
    };
    socket.on('data', (chunk: Buffer) => {
      if (got) return;
      let line: string | undefined;
      try {
        line = reader.push(chunk);
      } catch {
        got = true;
        reply({ v: HOST_PROTOCOL_VERSION, ok: false, declined: `request longer than ${MAX_REQUEST_BYTES} bytes` });
        return;
      }
      if (line === undefined) return;
      got = true;
      const req = parseRequest(line);
      if (typeof req === 'string') return reply({ v: HOST_PROTOCOL_VERSION, ok: false, declined: req });
      if (queued >= maxQueued)
        return reply({ v: HOST_PROTOCOL_VERSION, ok: false, declined: 'the host is busy with other calls' });
      queued++;
      // The deadline runs from arrival: a request stuck behind a slow one is declined on time too,
      // and a handler that never settles frees the queue at its deadline (its late answer is dropped).
      let release!: () => void;
      const deadline = new Promise<void>((r) => (release = r));
      const timer = setTimeout(() => {
        reply({
          v: HOST_PROTOCOL_VERSION,
          ok: false,
          declined: `the host did not answer within ${requestMs} ms (busy or stalled)`,
        });
        release();
      }, requestMs);
      timer.unref();
      // One request at a time: answers never interleave their freshness checks.
      const run = queue.then(() => {
        if (answered || socket.destroyed) return undefined;
        const work = options.handle(req).then(reply, (e: unknown) =>
          reply({
            v: HOST_PROTOCOL_VERSION,
            ok: false,
            declined: `host failed: ${(e as Error)?.message ?? String(e)}`,
          }),
        );
        return Promise.race([work, deadline]);
      });
      queue = run.finally(() => {
        clearTimeout(timer);
        queued--;
      });
    });
  });
  server.maxConnections = 32;

  if (endpoint.kind === 'unix') {
    const why = preparePrivateDir(endpoint.dir!);
    if (why) return { refused: why };
  }
  let ino: number | undefined;
  for (let attempt = 0; ; attempt++) {
    if (endpoint.kind === 'unix') {
      const why = await clearStaleSocket(endpoint.path);
      if (why) return { refused: why };
    }
    try {
      await listen(server, endpoint.path);
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' && attempt < 2) continue; // another host raced us: look again
      return { refused: `cannot listen at ${endpoint.path}: ${(e as Error).message}` };
    }
  }
  if (endpoint.kind === 'unix') {
    chmodSync(endpoint.path, 0o600);
    const at = inspectSocket(endpoint.path);
    ino = at.state === 'socket' ? at.ino : undefined;
  }
  server.unref();

  return {
    path: endpoint.path,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
      if (endpoint.kind === 'unix' && ino !== undefined) {
        const at = inspectSocket(endpoint.path);
        if (at.state === 'socket' && at.ino === ino) {
          try {
            unlinkSync(endpoint.path);
          } catch {
            /* gone already */
          }
        }
      }
    },
  };
}
