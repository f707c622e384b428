// Bad input R122 (docs/bad-inputs.md): the review marks (service/trust/review-marks.ts) keep the
// commits `gitmem sync` brought in — what labels a teammate's lines `incoming` and keeps them out of
// injected blocks. (1) An update was a read, change and replace with no lock: a sync recording
// incoming commits while a person approved files lost one of the two. (2) Only the 5,000 newest
// incoming commits were kept: an older one read as reviewed. Real index folder in a temp dir.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { approveFiles, readReviewMarks, recordIncoming } from '../../../src/service/trust/review-marks.js';
import { tempDir } from '../../support/fixtures.js';

const commit = (i: number) => i.toString(16).padStart(40, '0');

describe('the review marks', () => {
  it('keep both a sync and an approval made at once', async () => {
    const storage = createIndexStorage(join(tempDir(), 'index'));
    await Promise.all([
      recordIncoming(storage, [commit(1), commit(2)], ['memory/a.md']),
      approveFiles(storage, new Map([['memory/b.md', 'B\n']])),
      recordIncoming(storage, [commit(3)], ['memory/c.md']),
      approveFiles(storage, new Map([['memory/d.md', 'D\n']])),
    ]);
    const marks = await readReviewMarks(storage);
    expect(Object.keys(marks.incoming).sort()).toEqual([commit(1), commit(2), commit(3)]);
    expect(Object.keys(marks.incomingFiles).sort()).toEqual(['memory/a.md', 'memory/c.md']);
    expect(Object.keys(marks.approved).sort()).toEqual(['memory/b.md', 'memory/d.md']);
  });

  it('keep an incoming commit after 6,000 newer ones arrived', async () => {
    const storage = createIndexStorage(join(tempDir(), 'index'));
    await recordIncoming(storage, [commit(0)], ['memory/first.md']);
    for (let batch = 0; batch < 6; batch++) {
      const commits = Array.from({ length: 1000 }, (_, i) => commit(1 + batch * 1000 + i));
      await recordIncoming(storage, commits, [`memory/batch-${batch}.md`]);
    }
    const marks = await readReviewMarks(storage);
    expect(marks.incoming[commit(0)]).toBeDefined();
    expect(marks.incomingFiles['memory/first.md']).toBeDefined();
    expect(Object.keys(marks.incoming)).toHaveLength(6001);
  });
});
