// Issue 44 item 2: after an update the live index's next snapshot carries its embedding-key map over
// from the last one, redoing only the changed files' keys (engine/live/vector-key-map.ts), instead of
// a walk over every chunk on the next write or recall. Whatever the sequence of edits, new files,
// deletions and loads, the carried map must equal a full build over the snapshot's chunks.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Logger } from '../../../../src/core/ports.js';
import { contentHash } from '../../../../src/core/hash.js';
import { toRelPath } from '../../../../src/core/paths.js';
import { docRecords, type IndexSnapshot } from '../../../../src/engine/chunks/index-manager.js';
import { ChunkTable } from '../../../../src/engine/live/chunk-table.js';
import { LiveIndex, type FileState } from '../../../../src/engine/live/live-index.js';
import { buildKeyMap, updateKeyMap } from '../../../../src/engine/live/vector-key-map.js';
import { SegmentBuilder } from '../../../../src/engine/segments/segment-builder.js';
import { parseDocument } from '../../../../src/parse/parse-document.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

// Few distinct sections, so that one embedding key is carried by chunks of several files.
const SECTIONS = [
  '## Deploy\n\nRoll back with the blue pool.',
  '## Cache\n\nThe staging cache is flushed nightly.',
  '## Queue\n\nRetry the webhook queue twice.',
  '## Schema\n\nMigrations run before the deploy.',
  '## Token\n\nRotate the signing token monthly.',
];

const pathOf = (i: number) => `memory/notes/n${i}.md`;
function state(path: string, sections: readonly number[]): FileState {
  const text = `# Note\n\n${sections.map((s) => SECTIONS[s % SECTIONS.length]).join('\n\n')}\n`;
  const doc = parseDocument({ path: toRelPath(path), kind: 'note', text });
  return { hash: contentHash(text), records: docRecords(doc) };
}

/** The map as sorted entries (iteration order is not part of the contract; each list's order is). */
const entriesOf = (m: ReadonlyMap<string, readonly string[]>) =>
  [...m.entries()].map(([k, v]) => [k, [...v]] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));

function fullBuild(snap: IndexSnapshot) {
  const chunks = snap.chunks;
  return buildKeyMap(chunks.vectorKeys!());
}

const edit = fc.record({
  file: fc.nat({ max: 11 }),
  sections: fc.option(fc.array(fc.nat({ max: 9 }), { maxLength: 4 }), { nil: undefined, freq: 4 }),
});

afterEach(() => vi.restoreAllMocks());

describe('embedding-key map carried across live-index updates', () => {
  it('property: after every update the carried map equals a full build, and no update walks every chunk', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(edit, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }),
        async (batches) => {
          const storage = new MemoryIndexStorage();
          const builder = new SegmentBuilder({ script: false, logger });
          const open = () => new LiveIndex({ storage, fingerprint: 'keys-fp', logger, builder, compactAt: 1000 });
          const files = new Map<string, FileState>();
          for (let i = 0; i < 8; i++) files.set(pathOf(i), state(pathOf(i), [i, i + 1, i % 3]));
          const first = open();
          await first.rebuild(files);
          await first.flush();
          // A loaded index (records still encoded, keys from the artifact's columns) and a built one.
          const loaded = open();
          expect(await loaded.load(), loaded.loadFailure).toBe(true);
          for (const live of [first, loaded]) {
            live.snapshot.byVectorKey!(); // the first use walks every chunk once
            const walks = vi.spyOn(ChunkTable.prototype, 'vectorKeys');
            for (const batch of batches) {
              const changes = new Map<string, FileState | null>();
              for (const e of batch) changes.set(pathOf(e.file), e.sections ? state(pathOf(e.file), e.sections) : null);
              await live.update(changes);
              const carried = live.snapshot.byVectorKey!();
              expect(walks).not.toHaveBeenCalled();
              expect(entriesOf(carried)).toEqual(entriesOf(fullBuild(live.snapshot)));
              expect(carried.size).toBe(fullBuild(live.snapshot).size);
              walks.mockClear();
            }
            walks.mockRestore();
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('an update of one file redoes only the keys its old and new chunks carry', () => {
    const files = new Map<string, FileState>();
    for (let i = 0; i < 200; i++) files.set(pathOf(i), state(pathOf(i), [i, i + 7, i + 13]));
    const paths = [...files.keys()].sort();
    const before = new ChunkTable(files, paths);
    const prev = buildKeyMap(before.vectorKeys());
    const after = new Map(files);
    after.set(pathOf(5), state(pathOf(5), [1, 2]));
    const next = new ChunkTable(after, paths);
    const { map, touched } = updateKeyMap(
      prev,
      [pathOf(5)],
      (p) => before.keysOfPath(p),
      (p) => next.keysOfPath(p),
    );
    const keysOfFile = new Set([...before.keysOfPath(pathOf(5)), ...next.keysOfPath(pathOf(5))].map(([k]) => k));
    expect(touched).toBe(keysOfFile.size);
    expect(touched).toBeLessThan(prev.size);
    expect(entriesOf(map)).toEqual(entriesOf(buildKeyMap(next.vectorKeys())));
  });

  it('an overlay grown past its bound is folded into a plain map equal to a full build', () => {
    const unique = (path: string, v: number) => {
      const text = `# Note\n\nBody of ${path} version ${v}.\n`;
      return {
        hash: contentHash(text),
        records: docRecords(parseDocument({ path: toRelPath(path), kind: 'note', text })),
      };
    };
    let files = new Map<string, FileState>();
    for (let i = 0; i < 3000; i++) files.set(pathOf(i), unique(pathOf(i), 0));
    const paths = [...files.keys()].sort();
    let table = new ChunkTable(files, paths);
    let map: ReadonlyMap<string, readonly string[]> = buildKeyMap(table.vectorKeys());
    let folded = false;
    for (let i = 0; i < 1200; i += 50) {
      const next = new Map(files);
      const changed = paths.slice(i, i + 50);
      for (const p of changed) next.set(p, unique(p, 1));
      const nextTable = new ChunkTable(next, paths);
      const before = table;
      map = updateKeyMap(
        map,
        changed,
        (p) => before.keysOfPath(p),
        (p) => nextTable.keysOfPath(p),
      ).map;
      folded ||= map instanceof Map;
      [files, table] = [next, nextTable];
      expect(map.size).toBe(buildKeyMap(table.vectorKeys()).size);
    }
    expect(folded).toBe(true);
    expect(entriesOf(map)).toEqual(entriesOf(buildKeyMap(table.vectorKeys())));
  });
});
