// Where a workspace's host listens, and whether a path there may be trusted. Unix: a socket in a
// private folder of the workspace's derived state (`<state>/host/sock`, folder 0700, socket 0600);
// when that path is longer than a socket address holds (~104 bytes), a hashed name in a private
// runtime folder gitmem owns (`$XDG_RUNTIME_DIR/gitmem/`, else `<tmpdir>/gitmem-<uid>/`). Windows: a
// named pipe keyed by a hash of the derived-state folder. A path that is not a socket (a regular
// file, a symbolic link) or that belongs to another user is never connected to, served or removed.
// deps: core (hash), node:*.
import { chmodSync, lstatSync, mkdirSync, type Stats } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { sha256 } from '../core/hash.js';

/** Longest socket path used, in bytes (macOS holds 104 with the terminating NUL, Linux 108). */
export const MAX_SOCKET_PATH_BYTES = 103;

export interface HostEndpoint {
  /** `unix`: a Unix domain socket file; `pipe`: a Windows named pipe. */
  readonly kind: 'unix' | 'pipe';
  /** What `net.connect` / `listen` take. */
  readonly path: string;
  /** Unix: the private folder that holds the socket (0700, ours). */
  readonly dir?: string;
  /** True when the derived-state path was too long and the runtime folder is used. */
  readonly fallback: boolean;
}

const uid = () => (typeof process.getuid === 'function' ? process.getuid() : -1);
const hashOf = (stateDir: string, n: number) => sha256(resolve(stateDir)).slice(0, n);

/**
 * The endpoint of the host serving the workspace whose derived state is `stateDir`.
 * @returns undefined when no socket path short enough exists (the call then runs cold).
 */
export function hostEndpoint(
  stateDir: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): HostEndpoint | undefined {
  if (platform === 'win32') {
    const key = sha256(resolve(stateDir).toLowerCase()).slice(0, 32);
    return { kind: 'pipe', path: `\\\\.\\pipe\\gitmem-${key}`, fallback: false };
  }
  const dir = join(stateDir, 'host');
  const path = join(dir, 'sock');
  if (Buffer.byteLength(path) <= MAX_SOCKET_PATH_BYTES) return { kind: 'unix', path, dir, fallback: false };
  const runtime =
    env.XDG_RUNTIME_DIR && isAbsolute(env.XDG_RUNTIME_DIR)
      ? join(env.XDG_RUNTIME_DIR, 'gitmem')
      : join(tmpdir(), `gitmem-${uid()}`);
  for (const n of [32, 16]) {
    const p = join(runtime, `${hashOf(stateDir, n)}.sock`);
    if (Buffer.byteLength(p) <= MAX_SOCKET_PATH_BYTES) return { kind: 'unix', path: p, dir: runtime, fallback: true };
  }
  return undefined;
}

function lstatOrUndefined(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** Why `st` (of `what`) is not ours and private, or undefined when it is. */
function notPrivate(st: Stats, what: string): string | undefined {
  const me = uid();
  if (me >= 0 && st.uid !== me) return `${what} belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o077) !== 0) return `${what} is open to other users (mode ${octal(st.mode)})`;
  return undefined;
}

/**
 * Client side: may the socket folder be trusted? It must be a real folder (not a symbolic link),
 * ours, with no access for others. @returns the reason it may not, or undefined.
 */
export function checkSocketDir(dir: string): string | undefined {
  let st: Stats | undefined;
  try {
    st = lstatOrUndefined(dir);
  } catch (e) {
    return `cannot inspect ${dir}: ${(e as Error).message}`;
  }
  if (!st) return 'no host has listened here (no socket folder)';
  if (st.isSymbolicLink()) return `${dir} is a symbolic link (never followed)`;
  if (!st.isDirectory()) return `${dir} is not a folder`;
  return notPrivate(st, dir);
}

/**
 * Host side: create the socket folder (0700) or check the one there; a folder of ours that is open
 * to others is narrowed to 0700. @returns the reason it may not be used, or undefined.
 */
export function preparePrivateDir(dir: string): string | undefined {
  try {
    mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return `cannot create ${dir}: ${(e as Error).message}`;
  }
  const st = lstatOrUndefined(dir);
  if (!st) return `${dir} vanished`;
  if (st.isSymbolicLink()) return `${dir} is a symbolic link (never followed)`;
  if (!st.isDirectory()) return `${dir} is not a folder`;
  const me = uid();
  if (me >= 0 && st.uid !== me) return `${dir} belongs to another user (uid ${st.uid})`;
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return undefined;
}

/** What is at a socket path: nothing, a socket we may use, or something never to be touched. */
export type SocketState =
  | { readonly state: 'absent' }
  | { readonly state: 'socket'; readonly ino: number }
  | { readonly state: 'refused'; readonly reason: string };

/** Inspect `path` without following it: only a socket that is ours and private is usable. */
export function inspectSocket(path: string): SocketState {
  let st: Stats | undefined;
  try {
    st = lstatOrUndefined(path);
  } catch (e) {
    return { state: 'refused', reason: `cannot inspect ${path}: ${(e as Error).message}` };
  }
  if (!st) return { state: 'absent' };
  if (st.isSymbolicLink()) return { state: 'refused', reason: `${path} is a symbolic link (never followed)` };
  if (!st.isSocket()) return { state: 'refused', reason: `${path} is not a socket (a regular file or other)` };
  const why = notPrivate(st, path);
  return why ? { state: 'refused', reason: why } : { state: 'socket', ino: st.ino };
}
