// Issue 46: a one-shot process (no background compaction) does not rebuild a large base inline
// because a bulk change passed the delta threshold (engine/live/live-index-compaction.ts
// inlineFoldDue). After a `git checkout` of 1,000 files in a 100,000-file workspace, one recall
// rebuilt all 797,000 chunks before it answered (944 s, over 5 GB). The delta is kept and saved
// instead; the answers equal a fresh build's, in memory and after a load; a delta that grows to a
// quarter of the base folds as before, and a small base folds as before.
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../../src/core/ports.js';
import { LiveIndex, type FileState } from '../../../../src/engine/live/live-index.js';
import { inlineFoldDue } from '../../../../src/engine/live/live-index-compaction.js';
import { SegmentBuilder } from '../../../../src/engine/segments/segment-builder.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';
import { countingBuilder, fileState } from '../../../support/live-index-state.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const WORDS = ['pool', 'deploy', 'retry', 'webhook', 'cache', 'queue', 'schema', 'token', 'rollback', 'flag'];

const state = (path: string, text: string): FileState => fileState(path, text);

/** `n` one-chunk notes; `v` changes their text. */
function notes(n: number, v: number, from = 0): Map<string, FileState> {
  const m = new Map<string, FileState>();
  for (let i = from; i < from + n; i++) {
    const p = `memory/notes/n${String(i).padStart(4, '0')}.md`;
    m.set(p, state(p, `# N${i}\n\n${WORDS[i % 10]} ${WORDS[(i + v) % 10]} note${i} v${v}\n`));
  }
  return m;
}

const open = (storage: MemoryIndexStorage, builder: SegmentBuilder) =>
  new LiveIndex({ storage, fingerprint: 'oneshot-fp', logger, builder, compactAt: 10 });

describe('issue 46: a one-shot process leaves a large base to a host', () => {
  it('inlineFoldDue: a small base or a delta of a quarter of the base folds; a bulk change over a large base does not', () => {
    expect(inlineFoldDue(11, 11 + 200, 10)).toBe(true); // base 200 ≤ 20 × 10
    expect(inlineFoldDue(8_000, 797_000, 2000)).toBe(false); // the checkout at 100,000 files
    expect(inlineFoldDue(200_000, 997_000, 2000)).toBe(true); // delta ≥ base / 4
    expect(inlineFoldDue(2_001, 2_001 + 40_000, 2000)).toBe(true); // base ≤ 40,000 chunks
  });

  it('a bulk update past the threshold keeps its delta, answers as a fresh build, and loads so', async () => {
    const storage = new MemoryIndexStorage();
    const { builder, sizes } = countingBuilder();
    const live = open(storage, builder);
    const files = notes(400, 0);
    await live.rebuild(files);
    const base = live.snapshot.chunks.size;
    expect(base).toBeGreaterThan(10 * 20);
    sizes.length = 0;
    // A checkout rewrites 40 notes: the delta (40 chunks) passes the threshold of 10.
    const changed = notes(40, 3, 100);
    await live.update(changed);
    for (const [p, s] of changed) files.set(p, s);
    expect(live.deltaSize).toBe(40);
    expect(Math.max(...sizes)).toBeLessThan(base); // no build of every record
    expect(live.verify(files).differences).toEqual([]);
    expect(live.snapshot.lexical.search('v3', 50).length).toBe(40);
    await live.dispose();
    const loaded = open(storage, new SegmentBuilder({ script: false, logger }));
    expect(await loaded.load(), loaded.loadFailure).toBe(true);
    expect(loaded.deltaSize).toBe(40);
    expect(loaded.verify(files).differences).toEqual([]);
    // The delta grows to a quarter of the base: the next update folds it.
    const more = notes(80, 5, 200);
    await loaded.update(more);
    for (const [p, s] of more) files.set(p, s);
    expect(loaded.deltaSize).toBe(0);
    expect(loaded.verify(files).differences).toEqual([]);
    await loaded.dispose();
  });
});
