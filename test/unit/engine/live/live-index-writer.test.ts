// Bad input B44 (docs/bad-inputs.md): two saves of one process meet at the index folder's writer
// lock. A real index folder (platform/index-storage.ts, the real lock file): a keyword save is in
// progress (its write waits on a gate) when the same process asks for a vector save and for the
// lifetime lock a watch session takes. Checked by the order of events: each waits for the save in
// progress and then runs (before: the vector save was skipped after the lock wait, as if another
// process wrote the index, and the lifetime lock was refused, leaving the session read-only). The
// lock held by another writer of the folder is still refused, with its warning.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexWriter } from '../../../../src/engine/live/live-index-writer.js';
import { createIndexStorage } from '../../../../src/platform/index-storage.js';
import { tempDir } from '../../../support/fixtures.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function writerOn(dir: string, warnings: string[]): IndexWriter {
  const logger = { debug() {}, info() {}, warn: (m: string) => void warnings.push(m), error() {} };
  return new IndexWriter({ storage: createIndexStorage(dir), logger, lockWaitMs: 50 });
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
  const w = writerOn(index, warnings);
  const log: string[] = [];
  const keyword = gatedSave(log, 'keyword');
  const saved = w.persist(keyword.save, false);
  await keyword.started; // the keyword save holds the lock now
  return { index, w, warnings, log, keyword, saved };
}

/** Settles when `p` does, or after `ms` (a bound for the pre-fix behaviour, never asserted on). */
const settledOr = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => undefined), new Promise((r) => setTimeout(r, ms))]);

describe('B44: saves of one process take turns at the writer lock', () => {
  it('a vector save during a keyword save waits for it and is saved, with no warning', async () => {
    const { w, warnings, log, keyword, saved } = await writerMidSave();
    const vectors = w.underLock(async () => void log.push('vectors'), 'vectors');
    await settledOr(vectors, 500); // before the fix: refused after the 50 ms lock wait
    keyword.open();
    expect(await saved).toBe(true);
    expect(await vectors).toBe(true);
    expect(log).toEqual(['keyword start', 'keyword end', 'vectors']);
    expect(warnings).toEqual([]);
  });

  it('the lifetime lock asked for during a save is taken after it; another writer is still refused', async () => {
    const { index, w, warnings, keyword, saved } = await writerMidSave();
    const held = w.holdWriterLock();
    await settledOr(held, 500); // before the fix: refused at once (waitMs 0) with the "another process" warning
    keyword.open();
    expect(await saved).toBe(true);
    expect(await held).toBe(true);
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
