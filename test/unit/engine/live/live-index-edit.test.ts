// B46: edits of a big note through the live index (engine/live/live-index.ts, live-index-delta.ts). An
// update keeps in the delta the chunks of the edited file whose id and keyword fields are unchanged
// and builds only the others; the chunks of the files an update wrote do not count towards folding
// the delta into the base. Whatever the sequence of edits, the index must equal one built from
// scratch over the same files (LiveIndex.verify: file set, every chunk record, keyword answers on
// queries drawn from the vocabulary), in memory and after a load from what was saved.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../../src/core/ports.js';
import { LiveIndex, type FileState } from '../../../../src/engine/live/live-index.js';
import { SegmentBuilder } from '../../../../src/engine/segments/segment-builder.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';
import { countingBuilder, fileState } from '../../../support/live-index-state.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const NOTE = 'memory/daily/2026-12-01.md';

const state = (path: string, text: string): FileState => fileState(path, text);

const open = (storage: MemoryIndexStorage, builder: SegmentBuilder, compactAt: number, offThreadAt = 400) =>
  new LiveIndex({ storage, fingerprint: 'edit-fp', logger, builder, compactAt, offThreadAt });

const WORDS = ['pool', 'deploy', 'retry', 'webhook', 'cache', 'queue', 'schema', 'token', 'rollback', 'flag'];
const bullet = (i: number, v: number) =>
  `- ${WORDS[i % 10]} ${WORDS[(i * 3 + v) % 10]} note ${i} v${v} ${WORDS[(i + v) % 10]}`;

function bigNote(lines: number): string[] {
  const out = ['# 2026-12-01', ''];
  for (let i = 2; i < lines; i++) out.push(i % 20 === 0 ? `## block ${i / 20}` : bullet(i, 0));
  return out;
}

type Op = { kind: 'replace' | 'insert' | 'delete' | 'heading' | 'other'; at: number; v: number };
const op = fc.record({
  kind: fc.constantFrom<Op['kind']>('replace', 'replace', 'insert', 'delete', 'heading', 'other'),
  at: fc.nat({ max: 100_000 }),
  v: fc.integer({ min: 1, max: 9 }),
});

describe('B46: edits of a big note in the live index', () => {
  it('property: after every edit the index equals a fresh build, in memory and loaded', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), fc.boolean(), async (ops, background) => {
        const storage = new MemoryIndexStorage();
        const { builder } = countingBuilder();
        const live = open(storage, builder, 30);
        live.setBackground(background);
        const lines = bigNote(240);
        let other = '# Other\n\nThe staging cache is flushed nightly.\n';
        const files = () =>
          new Map<string, FileState>([
            [NOTE, state(NOTE, lines.join('\n'))],
            ['memory/other.md', state('memory/other.md', other)],
          ]);
        await live.rebuild(files());
        for (const o of ops) {
          const i = 2 + (o.at % (lines.length - 2));
          if (o.kind === 'replace') lines[i] = bullet(i, o.v);
          else if (o.kind === 'insert') lines.splice(i, 0, bullet(i + 1000, o.v));
          else if (o.kind === 'delete') lines.splice(i, 1);
          else if (o.kind === 'heading') lines[i] = `## moved ${o.v}`;
          const path = o.kind === 'other' ? 'memory/other.md' : NOTE;
          if (o.kind === 'other') other = `# Other\n\nThe staging ${WORDS[o.v]} is flushed nightly.\n`;
          const now = files();
          await live.update(new Map([[path, now.get(path)!]]));
          await live.compaction;
          expect(live.verify(now).differences).toEqual([]);
        }
        await live.dispose();
        const loaded = open(storage, new SegmentBuilder({ script: false, logger }), 30);
        expect(await loaded.load(), loaded.loadFailure).toBe(true);
        expect(loaded.verify(files()).differences).toEqual([]);
        await loaded.dispose();
      }),
      { numRuns: 25 },
    );
  });

  it('an in-place edit of a file already in the delta builds one chunk; the file alone never folds, a bulk update does', async () => {
    const storage = new MemoryIndexStorage();
    const { builder, sizes } = countingBuilder();
    const live = open(storage, builder, 30);
    const lines = bigNote(400);
    await live.rebuild(
      new Map([
        [NOTE, state(NOTE, lines.join('\n'))],
        ['memory/other.md', state('memory/other.md', '# Other\n\nstaging cache\n')],
      ]),
    );
    const chunks = state(NOTE, lines.join('\n')).records.length;
    expect(chunks).toBeGreaterThan(60);
    const edit = async (line: number, v: number) => {
      lines[line] = bullet(line, v);
      await live.update(new Map([[NOTE, state(NOTE, lines.join('\n'))]]));
    };
    await edit(101, 1); // the first edit: the file moves from the base into the delta
    expect(live.deltaSize).toBe(chunks);
    sizes.length = 0;
    await edit(201, 2);
    await edit(301, 3);
    // One changed chunk per edit; before, every edit built all of the file's chunks and then folded
    // the delta (over the threshold of 30) into a new base.
    expect(sizes).toEqual([1, 1]);
    expect(live.deltaSize).toBe(chunks);
    expect(live.snapshot.lexical.search('v3', 5).map((h) => h.ref)).toEqual(
      state(NOTE, lines.join('\n'))
        .records.filter((r) => r.text.includes(' v3 '))
        .map((r) => r.id),
    );
    // Another file's change: the note's chunks are now stale delta, past the threshold, and fold.
    await live.update(new Map([['memory/other.md', state('memory/other.md', '# Other\n\nstaging queue\n')]]));
    expect(live.deltaSize).toBe(0);
    // A bulk update (the note and four more files, as a checkout writes them) folds as before.
    await edit(101, 4);
    expect(live.deltaSize).toBe(chunks);
    lines[151] = bullet(151, 5);
    await live.update(
      new Map([
        [NOTE, state(NOTE, lines.join('\n'))],
        ...[1, 2, 3, 4].map((k): [string, FileState] => [
          `memory/n${k}.md`,
          state(`memory/n${k}.md`, `# N${k}\n\nqueue ${k}\n`),
        ]),
      ]),
    );
    expect(live.deltaSize).toBe(0);
    await live.dispose();
  });
});
