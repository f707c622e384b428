// Unit tests for recall's metadata filters (service/recall/filters.ts): which chunks a query may
// return by type, tag, kind, linked file, date, agent and hidden state. Chunk records are built by
// hand: the filter logic is under test.
import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../../../src/engine/chunks/index-manager.js';
import { accept, type Filters } from '../../../src/service/recall/filters.js';

const chunk = (over: Partial<ChunkRecord>): ChunkRecord =>
  ({
    id: 'memory/entries/a.md#5',
    path: 'memory/entries/a.md',
    kind: 'entry',
    text: 'Postgres pool size is twenty.',
    headingPath: [],
    tags: ['db'],
    startLine: 5,
    endLine: 5,
    date: '2026-03-10',
    entry: { id: 'a', type: 'decision', tags: ['db'] },
    files: ['src/db/pool.ts'],
    agent: 'Claude',
    ...over,
  }) as unknown as ChunkRecord;

const filters = (over: Partial<Filters> = {}): Filters => ({
  types: [],
  tags: [],
  kinds: [],
  superseded: new Map(),
  ...over,
});

describe('recall filters (accept)', () => {
  it('no filters: a live chunk is accepted', () => {
    expect(accept(chunk({}), filters())).toBe(true);
  });

  it('type, tag and kind filters each keep only matching chunks', () => {
    expect(accept(chunk({}), filters({ types: ['decision'] }))).toBe(true);
    expect(accept(chunk({}), filters({ types: ['warning'] }))).toBe(false);
    expect(accept(chunk({ entry: undefined }), filters({ types: ['decision'] }))).toBe(false);
    expect(accept(chunk({}), filters({ tags: ['ops', 'db'] }))).toBe(true);
    expect(accept(chunk({}), filters({ tags: ['ops'] }))).toBe(false);
    expect(accept(chunk({}), filters({ kinds: ['daily'] }))).toBe(false);
    expect(accept(chunk({}), filters({ kinds: ['entry'] }))).toBe(true);
  });

  it('linked-file glob matches at any depth and with a leading ./', () => {
    expect(accept(chunk({}), filters({ file: 'pool.ts' }))).toBe(true);
    expect(accept(chunk({}), filters({ file: './src/db/*.ts' }))).toBe(true);
    expect(accept(chunk({}), filters({ file: 'src/api/*.ts' }))).toBe(false);
    expect(accept(chunk({ files: undefined }), filters({ file: '*.ts' }))).toBe(false);
  });

  it('since/until compare whole days, inclusive; an undated chunk fails a date filter', () => {
    expect(accept(chunk({}), filters({ since: '2026-03-10', until: '2026-03-10T23:59:00Z' }))).toBe(true);
    expect(accept(chunk({}), filters({ since: '2026-03-11' }))).toBe(false);
    expect(accept(chunk({}), filters({ until: '2026-03-09' }))).toBe(false);
    expect(accept(chunk({ date: undefined }), filters({ since: '2000-01-01' }))).toBe(false);
  });

  it('agent matches case-insensitively; hidden and superseded chunks only with includeHidden', () => {
    expect(accept(chunk({}), filters({ agent: ' claude ' }))).toBe(true);
    expect(accept(chunk({}), filters({ agent: 'codex' }))).toBe(false);
    const superseded = new Map([['a', ['b']]]);
    expect(accept(chunk({}), filters({ superseded }))).toBe(false);
    expect(accept(chunk({}), filters({ superseded, includeHidden: true }))).toBe(true);
    expect(accept(chunk({ hidden: 'archived' }), filters())).toBe(false);
  });
});
