// The keyword worker (dist/lexical-worker.js, built by `npm run build`) against the main-thread
// build: the worker encodes the chunk-record artifact record by record as the slices arrive (it
// keeps no record), and both give the same segment and chunk-record bytes, also for record sets
// whose JSON crosses the encoder's 1 MiB pieces and one record longer than a piece.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nullLogger } from '../../../src/core/ports.js';
import { decodeChunkRecords, encodeChunkRecords } from '../../../src/engine/chunks/chunk-codec.js';
import type { ChunkRecord } from '../../../src/engine/chunks/index-manager.js';
import { SegmentBuilder } from '../../../src/engine/segments/segment-builder.js';

const WORKER = resolve('dist/lexical-worker.js');

function records(n: number, long = -1): ChunkRecord[] {
  const out: ChunkRecord[] = [];
  for (let i = 0; i < n; i++) {
    const path = `memory/daily/2026-01-${String(1 + (i >> 3)).padStart(4, '0')}.md`;
    const text =
      i === long
        ? `long ${'x'.repeat(1_200_000)} é 東京`
        : `chunk ${i} deploy retry webhook w${(i * 7919) % 3001}x ${'é'.repeat(i % 5)} redis queue worker`;
    out.push({
      id: `${path}#${i}`,
      path,
      kind: 'daily',
      startLine: i + 1,
      endLine: i + 2,
      headingPath: [`day ${i >> 3}`],
      text,
      tags: i % 3 ? ['ops'] : [],
      ...(i % 11 === 0 ? { supersedes: [`e-${i}`] } : {}),
      ...(i % 2 ? { vkey: (i % 16).toString(16).repeat(64) } : {}),
    });
  }
  return out;
}

describe('segment builder: worker and main thread', () => {
  it('the worker gives the bytes of the main-thread build (segment and chunk records, 1 MiB pieces crossed)', async () => {
    expect(existsSync(WORKER), 'run npm run build first').toBe(true);
    const rs = records(9000, 4321);
    const worker = new SegmentBuilder({ script: WORKER, logger: nullLogger });
    const inline = new SegmentBuilder({ script: false, logger: nullLogger });
    try {
      const a = await worker.build(rs, { offThread: true, chunks: true });
      const b = await inline.build(rs, { chunks: true });
      expect(a.where).toBe('worker');
      expect(b.where).toBe('inline');
      expect(Buffer.from(a.lexBytes).equals(Buffer.from(b.lexBytes))).toBe(true);
      expect(a.chunksBytes!.byteLength).toBeGreaterThan(2 * 1024 * 1024);
      expect(Buffer.from(a.chunksBytes!).equals(Buffer.from(b.chunksBytes!))).toBe(true);
      expect(a.chunksInfo).toEqual(b.chunksInfo);
      const t = decodeChunkRecords(a.chunksBytes!);
      expect(t.slice(0, t.size)).toEqual(rs);
      expect(t.superseding).toEqual(rs.flatMap((r, i) => (r.supersedes ? [i] : [])));
    } finally {
      await worker.dispose();
      await inline.dispose();
    }
  });

  it('an empty record set encodes as the codec does', () => {
    expect(decodeChunkRecords(encodeChunkRecords([])).size).toBe(0);
  });
});
