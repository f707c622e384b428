// Issue #44 item 2: a write costs the files it may repeat, and an unchanged one not even that. A
// long-lived process (`freshness: 'manual'`, as the MCP server) that remembers twice on one subject
// reads the entries the index names once: the second time, a candidate whose stat key is the one the
// index recorded is taken from the parse cache. A candidate rewritten on disk since (its stat key
// moved, the index not told) is read again, so dedupe still compares against the file as it is.
// Real files in a temp folder, the real node file system (reads counted), the real index.
import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import type { MemoryFs } from '../../../src/core/ports.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { createMemory, type Memory } from '../../../src/service/memory.js';
import { remember } from '../../../src/service/remember/remember.js';
import { tempDir } from '../../support/fixtures.js';
import { workspace } from '../../support/watch.js';

const entry = (i: number) =>
  `---\nid: e-${i}\ntype: learning\n---\nThe deploy window note ${i}: release trains leave at ${i + 8}:00 on weekdays.\n`;

const opened: { mem: Memory; root: string }[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.mem.dispose();
    rmSync(dirname(o.root), { recursive: true, force: true });
  }
});

/** A workspace of 12 learning entries on one subject, an hour old (stat keys the index trusts), opened as the MCP server opens it. */
async function open(): Promise<{ mem: Memory; root: string; reads: string[] }> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++) files[`memory/entries/e-${i}.md`] = entry(i);
  const root = workspace(files);
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const p of Object.keys(files)) utimesSync(join(root, p), hourAgo, hourAgo);
  const reads: string[] = [];
  const real = createNodeFs(root);
  const fs: MemoryFs = {
    ...real,
    read: (path: RelPath) => {
      reads.push(path);
      return real.read(path);
    },
  };
  const mem = await createMemory({
    fs,
    openStorage: () => createIndexStorage(join(tempDir('gitmem-reads-idx-'), 'index')),
    freshness: 'manual',
    lexicalWorker: false,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });
  opened.push({ mem, root });
  await mem.context.fresh();
  return { mem, root, reads };
}

const entriesRead = (reads: readonly string[]) => reads.filter((p) => /\/e-\d+\.md$/.test(p)).sort();

describe('remember in a long-lived process: candidates unchanged since they were parsed are not read again', () => {
  it('the second remember on a subject reads none of the entries the first one read', async () => {
    const { mem, reads } = await open();
    const first = await remember(mem.context, { text: 'Deploy window: release trains leave at 7:30 on weekdays.' });
    expect(first.status).toBe('created');
    const firstReads = entriesRead(reads.splice(0));
    expect(firstReads.length).toBeGreaterThan(3); // the index named several entries of the subject
    const second = await remember(mem.context, {
      text: 'Deploy window: release trains leave at 6:45 on weekdays in winter.',
    });
    expect(second.status).toBe('created');
    expect(entriesRead(reads).filter((p) => firstReads.includes(p))).toEqual([]);
  });

  it('a candidate rewritten on disk since it was parsed is read again: dedupe sees its new text', async () => {
    const { mem, root, reads } = await open();
    await remember(mem.context, { text: 'Deploy window: release trains leave at 7:30 on weekdays.' });
    reads.splice(0);
    // e-3 now says exactly what the next remember says; the index is not told (no event, no walk).
    const said = 'The deploy window note: release trains leave at 11:00 on weekdays, since March.';
    writeFileSync(join(root, 'memory/entries/e-3.md'), `---\nid: e-3\ntype: learning\n---\n${said}\n`);
    const then = new Date(Date.now() - 1_800_000);
    utimesSync(join(root, 'memory/entries/e-3.md'), then, then);
    const again = await remember(mem.context, { text: said });
    expect(entriesRead(reads)).toContain('memory/entries/e-3.md');
    expect(again).toMatchObject({ status: 'duplicate', duplicateOf: 'e-3' });
  });
});
