// Bad input R112 (docs/bad-inputs.md): the writer record (service/review/writers.ts) kept its 2,000
// newest records and dropped the rest, so once agents had written more than 2,000 memory files the
// oldest of them read as a person's write: `reviewed` in recall, gone from `gitmem review`, let into
// injected blocks. A person's records now go first (they only repeat the default); an agent's are
// kept up to MAX_AGENT_RECORDS. Unit test of the record over the in-memory index storage.
import { describe, expect, it } from 'vitest';
import { readWriters, recordWriter, writerOf } from '../../../../src/service/review/writers.js';
import { MemoryIndexStorage } from '../../../support/memory-storage.js';

const files = (prefix: string, n: number): Map<string, string> =>
  new Map(
    Array.from({ length: n }, (_, i) => [`memory/entries/${prefix}-${i}.md`, `# ${prefix} ${i}\n\nText ${i}.\n`]),
  );

describe('the writer record past 2,000 files', () => {
  it('keeps every agent record when agents wrote 2,500 files', async () => {
    const storage = new MemoryIndexStorage();
    const written = files('agent', 2500);
    await recordWriter(storage, written, 'agent', 'mcp');
    const records = await readWriters(storage);
    expect(Object.keys(records)).toHaveLength(2500);
    const [firstPath, firstText] = [...written][0]!;
    expect(writerOf(records, firstPath, firstText)).toMatchObject({ writer: 'agent', via: 'mcp' });
  });

  it("drops a person's records before an agent's, oldest first", async () => {
    const storage = new MemoryIndexStorage();
    const early = new Date('2026-12-01T00:00:00Z');
    await recordWriter(storage, files('person', 1500), 'human', 'editor', early);
    const agent = files('agent', 1000);
    await recordWriter(storage, agent, 'agent', 'mcp', early);
    await recordWriter(storage, files('later', 600), 'human', 'editor');
    const records = await readWriters(storage);
    expect(Object.keys(records)).toHaveLength(2000);
    for (const [p, t] of agent) expect(writerOf(records, p, t).writer).toBe('agent');
    // The 1,100 over the cap were the oldest of the person's records.
    expect(Object.keys(records).filter((k) => k.includes('/person-'))).toHaveLength(400);
    expect(records['memory/entries/person-0.md']).toBeUndefined();
    expect(records['memory/entries/person-1499.md']).toBeDefined();
    expect(Object.keys(records).filter((k) => k.includes('/later-'))).toHaveLength(600);
  });
});
