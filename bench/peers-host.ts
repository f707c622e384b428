// The "running host" rows of bench:peers: a real `gitmem watch --json` process holds the index of a
// workspace while one-shot `gitmem recall` processes ask it over the host socket (src/host/). The
// cold rows of the same run pass `--no-host`, so both are measured on the same workspace while the
// watch process runs. deps: node:* only.
import { spawn, type ChildProcess } from 'node:child_process';

export interface WatchHost {
  /** The socket the watch process listens on (from its `ready` event), or null when it refused. */
  readonly socket: string | null;
  /** Why it does not answer one-shot calls (null when it does). */
  readonly refused: string | null;
  /** Stop it (SIGINT, then SIGKILL after 10 s) and wait for it to exit. */
  stop(): Promise<void>;
}

/** Start `gitmem watch --json` on `root` and resolve once it says `ready` (rejects after 10 minutes). */
export function startWatchHost(cli: string, root: string): Promise<WatchHost> {
  const child: ChildProcess = spawn(process.execPath, [cli, 'watch', '--dir', root, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let buf = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGINT');
    const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(t);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`gitmem watch was not ready within 10 minutes: ${err.slice(0, 300)}`));
    }, 600_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gitmem watch exited (${code}) before ready: ${err.slice(0, 300)}`));
    });
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        let j: { event?: string; host?: { socket?: string | null; refused?: string } };
        try {
          j = JSON.parse(line) as typeof j;
        } catch {
          continue;
        }
        if (j.event !== 'ready') continue;
        clearTimeout(timer);
        resolve({ socket: j.host?.socket ?? null, refused: j.host?.refused ?? null, stop });
      }
    });
  });
}

/** The `servedBy` field of a `recall --json` answer (the host's kind), or undefined for a cold answer. */
export function servedBy(stdout: string): string | undefined {
  try {
    const s = (JSON.parse(stdout) as { servedBy?: unknown }).servedBy;
    return typeof s === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
}
