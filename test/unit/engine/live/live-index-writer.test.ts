// Bad input B44 (docs/bad-inputs.md): two saves of one process meet at the index folder's writer
// lock. A real index folder (platform/index-storage.ts, the real lock file): a keyword save is in
// progress (its write waits on a gate) when the same process asks for a vector save and for the
// lifetime lock a watch session takes. Checked by the order of events: each waits for the save in
// progress and then runs (before: the vector save was skipped after the lock wait, as if another
// process wrote the index, and the lifetime lock was refused, leaving the session read-only). The
// lock held by another writer of the folder is still refused, with its warning.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexWriter } from '../../../../src/engine/live/live-index-writer.js';
import { createIndexStorage } from '../../../../src/platform/index-storage.js';
import { tempDir } from '../../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The purposes the writer asked the index folder's lock file for, in order. */
type Asks = string[];

function writerOn(dir: string, warnings: string[], asks: Asks = []): IndexWriter {
  const logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
  const storage = createIndexStorage(dir);
  const lock = storage.lock!.bind(storage);
  const recorded: typeof storage = {
    ...storage,
    lock: (o) => {
      asks.push(o?.purpose ?? '');
      return lock(o);
    },
  };
  return new IndexWriter({ storage: recorded, logger, lockWaitMs: 50 });
}

/** A save that logs its start and end (`started` resolves at the start) and finishes when `open` is called. */
function gatedSave(
  log: string[],
  name: string,
): { save: () => Promise<void>; open: () => void; started: Promise<void> } {
  let open!: () => void;
  let start!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const started = new Promise<void>((r) => (start = r));
  return {
    started,
    save: async () => {
      log.push(`${name} start`);
      start();
      await gate;
      log.push(`${name} end`);
    },
    open: () => open(),
  };
}

/**
 * A writer on a fresh index folder (`index`) with a keyword save in progress: `keyword.started` has
 * resolved, so the save holds the lock until `keyword.open()` is called; `saved` is its result.
 */
async function writerMidSave() {
  const dir = tempDir('gitmem-b44-');
  dirs.push(dir);
  mkdirSync(dir, { recursive: true });
  const index = join(dir, 'index');
  const warnings: string[] = [];
  const asks: Asks = [];
  const w = writerOn(index, warnings, asks);
  const log: string[] = [];
  const keyword = gatedSave(log, 'keyword');
  const saved = w.persist(keyword.save, false);
  await keyword.started; // the keyword save holds the lock now
  return { index, w, warnings, log, keyword, saved, asks };
}

describe('B44: saves of one process take turns at the writer lock', () => {
  it('a vector save during a keyword save waits for it and is saved, with no warning', async () => {
    const { w, warnings, log, keyword, saved, asks } = await writerMidSave();
    const vectors = w.underLock(async () => void log.push('vectors'), 'vectors');
    // It waits its turn without asking the lock file (before the fix it asked at once, found its own
    // process's lock and was refused after the 50 ms lock wait).
    await setImmediate();
    expect(asks).toEqual(['index']);
    keyword.open();
    expect(await saved).toBe(true);
    expect(await vectors).toBe(true);
    expect(log).toEqual(['keyword start', 'keyword end', 'vectors']);
    expect(asks).toEqual(['index', 'vectors']);
    expect(warnings).toEqual([]);
  });

  it('the lifetime lock asked for during a save is taken after it; another writer is still refused', async () => {
    const { index, w, warnings, keyword, saved, asks } = await writerMidSave();
    const held = w.holdWriterLock();
    // It waits its turn without asking the lock file (before the fix it asked at once, with waitMs 0,
    // and was refused with the "another process" warning).
    await setImmediate();
    expect(asks).toEqual(['index']);
    keyword.open();
    expect(await saved).toBe(true);
    expect(await held).toBe(true);
    expect(asks).toEqual(['index', 'watch']);
    expect(warnings).toEqual([]);
    // A second writer of the same folder (another owner of the lock) is refused and says so.
    const otherWarnings: string[] = [];
    const other = writerOn(index, otherWarnings);
    expect(await other.holdWriterLock()).toBe(false);
    expect(otherWarnings.join('\n')).toMatch(/another gitmem process writes the index/);
    expect(await other.underLock(async () => undefined, 'vectors')).toBe(false);
    await w.release();
    // Released: a writer of the folder takes it again.
    expect(await writerOn(index, []).underLock(async () => undefined, 'vectors')).toBe(true);
  });
});
