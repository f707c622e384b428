// Test support: waits for a condition that no event announces, each with a deadline, never a fixed
// sleep. Where an event exists (a notification, a 'data' or 'exit' event, a promise) tests wait for
// that instead; where the logic is a timer, they use fake timers.
import { statSync, watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as turn } from 'node:timers/promises';

/**
 * Resolve once `condition()` holds, checking it every `everyMs` (default 10 ms) until `deadlineMs`
 * (default 60 s) has passed. @throws Error naming `what` when the deadline passes first.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { deadlineMs = 60_000, everyMs = 10 }: { deadlineMs?: number; everyMs?: number } = {},
): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Resolve once the file-system clock has moved on: a file written after this returns gets an mtime
 * and ctime later than any file written before it was called (a rewrite within one timestamp tick,
 * a few milliseconds, keeps both, which is what core/ports.ts RACY_MS is about). Writes a probe file
 * `.tick` in `dir` (a scratch folder, not the workspace under test) until its ctime moves.
 * @throws Error when the clock has not moved within 5 s.
 */
export async function nextTimestampTick(dir: string): Promise<void> {
  const probe = join(dir, '.tick');
  const ctime = () => {
    writeFileSync(probe, '');
    return statSync(probe, { bigint: true }).ctimeNs;
  };
  const first = ctime();
  const end = Date.now() + 5_000;
  while (ctime() === first) {
    if (Date.now() > end) throw new Error('the file-system clock did not move within 5 s');
    await turn();
  }
}

/**
 * Resolve once `condition()` holds, checking it now and on every file-system event (fs.watch; in
 * sub-folders too with `recursive`) in `dir`, which must exist; or as soon as `stop` settles (a child
 * process's exit, say).
 * @throws Error naming `what` after `deadlineMs` (60 s).
 */
export function untilInFolder(
  dir: string,
  condition: () => boolean,
  what: string,
  {
    deadlineMs = 60_000,
    stop,
    recursive = false,
  }: { deadlineMs?: number; stop?: Promise<unknown>; recursive?: boolean } = {},
): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dir, { recursive });
    let open = true;
    const done = (error?: Error) => {
      if (!open) return;
      open = false;
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve();
    };
    const check = () => {
      if (condition()) done();
    };
    const timer = setTimeout(() => done(new Error(`timed out after ${deadlineMs} ms waiting for ${what}`)), deadlineMs);
    watcher.on('change', check);
    watcher.on('error', (e) => done(e));
    void stop?.then(
      () => done(),
      () => done(),
    );
    check();
  });
}

/**
 * Counts file-system events (fs.watch, recursive) under `dir`, which must exist, from now on. `after(n)`
 * resolves once more than `n` have arrived (read `count` before the step that may cause one, so none
 * is missed). Close it when done.
 * @throws (from `after`) Error naming `what` after `deadlineMs` (60 s) without one.
 */
export function folderEvents(dir: string): {
  readonly count: number;
  after(n: number, what: string, deadlineMs?: number): Promise<void>;
  close(): void;
} {
  let count = 0;
  const waiters = new Set<() => void>();
  const watcher = watch(dir, { recursive: true }, () => {
    count++;
    for (const w of [...waiters]) w();
  });
  return {
    get count() {
      return count;
    },
    after(n, what, deadlineMs = 60_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (count <= n) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out after ${deadlineMs} ms waiting for ${what}`));
        }, deadlineMs);
        waiters.add(check);
        check();
      });
    },
    close: () => watcher.close(),
  };
}
