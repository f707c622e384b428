// The host socket's endpoint, listener and client over real Unix sockets in temp folders: the
// short-path fallback, owner-only permissions, stale-socket replacement, refusal of paths that are
// not our socket, and a client that never waits past its timeouts (silent host, oversized reply).
// Bad-input cases: H01, H02, H03, H05.
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askHost } from '../../../src/host/client.js';
import { hostEndpoint, MAX_SOCKET_PATH_BYTES, type HostEndpoint } from '../../../src/host/endpoint.js';
import { HOST_PROTOCOL_VERSION, LineReader, parseRequest, type HostReply } from '../../../src/host/protocol.js';
import { startHostServer, type HostServer } from '../../../src/host/server.js';

const dirs: string[] = [];
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function stateDir(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'gm-host-')));
  dirs.push(d);
  return join(d, 'state');
}

const info = { kind: 'watch' as const, pid: process.pid, root: '/ws', declines: null };
const echo = async (): Promise<HostReply> => ({ v: HOST_PROTOCOL_VERSION, ok: true, host: info, result: 'pong' });

async function serve(endpoint: HostEndpoint, handle = echo): Promise<HostServer> {
  const s = await startHostServer({ endpoint, handle });
  if ('refused' in s) throw new Error(s.refused);
  closers.push(() => s.close());
  return s;
}

describe('host endpoint', () => {
  it('uses <state>/host/sock when it fits, else a hashed name in a private runtime folder', () => {
    const short = hostEndpoint('/x/.git/gitmem', {}, 'linux')!;
    expect(short).toMatchObject({ kind: 'unix', path: '/x/.git/gitmem/host/sock', fallback: false });
    const deep = `/${'d'.repeat(120)}/.git/gitmem`;
    const runtime = hostEndpoint(deep, { XDG_RUNTIME_DIR: '/run/user/1000' }, 'linux')!;
    expect(runtime.fallback).toBe(true);
    expect(runtime.dir).toBe('/run/user/1000/gitmem');
    expect(Buffer.byteLength(runtime.path)).toBeLessThanOrEqual(MAX_SOCKET_PATH_BYTES);
    // Another workspace's state folder gets another name; the same one always the same.
    expect(hostEndpoint(`${deep}2`, { XDG_RUNTIME_DIR: '/run/user/1000' }, 'linux')!.path).not.toBe(runtime.path);
    expect(hostEndpoint(deep, { XDG_RUNTIME_DIR: '/run/user/1000' }, 'linux')!.path).toBe(runtime.path);
    const pipe = hostEndpoint('C:\\Repo\\.git\\gitmem', {}, 'win32')!;
    expect(pipe.kind).toBe('pipe');
    expect(pipe.path).toMatch(/^\\\\\.\\pipe\\gitmem-[0-9a-f]{32}$/);
  });

  it('a long state path falls back to a private runtime folder that is really served', async () => {
    const base = stateDir();
    const deep = join(base, 'x'.repeat(60), 'y'.repeat(60));
    const runtime = join(base, '..', 'rt');
    const ep = hostEndpoint(deep, { XDG_RUNTIME_DIR: runtime })!;
    expect(ep.fallback).toBe(true);
    await serve(ep);
    expect(lstatSync(ep.dir!).mode & 0o777).toBe(0o700);
    expect(lstatSync(ep.path).mode & 0o777).toBe(0o600);
    const r = await askHost(ep, { op: 'ping', root: '/ws', args: {} });
    expect('reply' in r && r.reply.ok).toBe(true);
  });
});

describe('host listener and client', () => {
  it('owner-only permissions; a second host refuses while the first answers; close removes the socket', async () => {
    const ep = hostEndpoint(stateDir())!;
    const s = await serve(ep);
    expect(lstatSync(ep.dir!).mode & 0o777).toBe(0o700);
    expect(lstatSync(ep.path).isSocket()).toBe(true);
    expect(lstatSync(ep.path).mode & 0o777).toBe(0o600);
    const second = await startHostServer({ endpoint: ep, handle: echo });
    expect('refused' in second && second.refused).toMatch(/another host/);
    await s.close();
    expect(() => lstatSync(ep.path)).toThrow(/ENOENT/);
  });

  it('a socket folder open to others is not trusted by the client', async () => {
    const ep = hostEndpoint(stateDir())!;
    await serve(ep);
    chmodSync(ep.dir!, 0o755);
    const r = await askHost(ep, { op: 'ping', root: '/ws', args: {} });
    expect('fallback' in r && r.fallback).toMatch(/open to other users/);
  });

  it('a socket folder that is a symbolic link (to a live host) is neither followed nor served', async () => {
    const live = hostEndpoint(stateDir())!;
    await serve(live);
    const ep = hostEndpoint(stateDir())!;
    mkdirSync(join(ep.dir!, '..'), { recursive: true, mode: 0o700 });
    symlinkSync(live.dir!, ep.dir!);
    const r = await askHost(ep, { op: 'ping', root: '/ws', args: {} });
    expect('fallback' in r && r.fallback).toMatch(/symbolic link/);
    const s = await startHostServer({ endpoint: ep, handle: echo });
    expect('refused' in s && s.refused).toMatch(/symbolic link/);
    expect(lstatSync(ep.dir!).isSymbolicLink()).toBe(true);
    expect(lstatSync(live.path).isSocket()).toBe(true); // the live host's socket is untouched
  });

  it('a socket whose mode is open to others is not trusted by the client', async () => {
    const ep = hostEndpoint(stateDir())!;
    await serve(ep);
    chmodSync(ep.path, 0o666);
    const r = await askHost(ep, { op: 'ping', root: '/ws', args: {} });
    expect('fallback' in r && r.fallback).toMatch(/open to other users \(mode 0666\)/);
  });

  it('never follows or serves a regular file or a symbolic link at the socket path', async () => {
    for (const make of ['file', 'symlink'] as const) {
      const ep = hostEndpoint(stateDir())!;
      mkdirSync(ep.dir!, { recursive: true, mode: 0o700 });
      if (make === 'file') writeFileSync(ep.path, 'x');
      else {
        const other = hostEndpoint(stateDir())!;
        await serve(other);
        symlinkSync(other.path, ep.path);
      }
      const r = await askHost(ep, { op: 'ping', root: '/ws', args: {} });
      expect('fallback' in r && r.fallback).toMatch(make === 'file' ? /not a socket/ : /symbolic link/);
      const s = await startHostServer({ endpoint: ep, handle: echo });
      expect('refused' in s).toBe(true);
      expect(lstatSync(ep.path).isSymbolicLink() || lstatSync(ep.path).isFile()).toBe(true);
    }
  });

  it('a silent host and a connection that never completes give a fallback within the timeout', async () => {
    const ep = hostEndpoint(stateDir())!;
    mkdirSync(ep.dir!, { recursive: true, mode: 0o700 });
    const held = new Set<import('node:net').Socket>();
    const silent: Server = createServer((c) => held.add(c)); // accepts, never answers
    await new Promise<void>((r) => silent.listen(ep.path, r));
    chmodSync(ep.path, 0o600);
    closers.push(
      () =>
        new Promise<void>((r) => {
          silent.close(() => r());
          for (const c of held) c.destroy();
        }),
    );
    const t0 = Date.now();
    const r = await askHost(ep, { op: 'recall', root: '/ws', args: { query: 'x' } }, { timeoutMs: 300 });
    expect('fallback' in r && r.fallback).toMatch(/did not answer within 300 ms/);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('a hung handler never hangs the caller; the next host on the path serves', async () => {
    const ep = hostEndpoint(stateDir())!;
    const hung = await serve(ep, () => new Promise<HostReply>(() => undefined));
    const r = await askHost(ep, { op: 'ping', root: '/ws', args: {} }, { timeoutMs: 200 });
    expect('fallback' in r && r.fallback).toMatch(/did not answer/);
    await hung.close();
    // The next host on the same path serves normally (stale sockets from kill -9: test/integration/host/host.test.ts).
    await serve(ep);
    const ok = await askHost(ep, { op: 'ping', root: '/ws', args: {} });
    expect('reply' in ok && ok.reply.ok).toBe(true);
  });

  it('bounded lines: an oversized request is declined, a malformed one too', async () => {
    const reader = new LineReader(8);
    expect(reader.push(Buffer.from('1234'))).toBeUndefined();
    expect(() => reader.push(Buffer.from('567890'))).toThrow(/longer than 8/);
    expect(parseRequest('{')).toMatch(/not JSON/);
    expect(parseRequest(JSON.stringify({ v: 99, op: 'ping', root: '/', args: {} }))).toMatch(/protocol version/);
    expect(parseRequest(JSON.stringify({ v: HOST_PROTOCOL_VERSION, op: 'remember', root: '/', args: {} }))).toMatch(
      /unknown operation/,
    );
    // The caller's listing digest crosses when it is a string; anything else is dropped.
    const req = { v: HOST_PROTOCOL_VERSION, op: 'recall', root: '/ws', args: { query: 'q' } };
    expect(parseRequest(JSON.stringify({ ...req, listing: 'ab12' }))).toEqual({ ...req, listing: 'ab12' });
    expect(parseRequest(JSON.stringify({ ...req, listing: { x: 1 } }))).toEqual(req);
    const ep = hostEndpoint(stateDir())!;
    await serve(ep);
    const big = await askHost(ep, { op: 'recall', root: '/ws', args: { query: 'x'.repeat(70 * 1024) } });
    expect('reply' in big && !big.reply.ok && 'declined' in big.reply && big.reply.declined).toMatch(/longer than/);
  });
});
