// Worker-thread entry (bundled to dist/lexical-worker.js): builds keyword segments off the main
// thread, so that a compaction or a full rebuild (seconds for 50k chunks) never stalls recall.
// Protocol (see segment-builder.ts): `hello` on start; then per job any number of `records`
// messages followed by one `build`; the answer carries the segment (and optionally the chunk-record artifact)
// bytes with their SHA-256, transferred, not copied. Records are folded into the keyword segment as
// they arrive (no lunr Builder, no per-token lists) and, when the chunk-record artifact is asked
// for, encoded into it at once: no record is kept. deps: indexes, engine (index-manager, chunk-codec,
// segment-builder), node:*.
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { LexicalIndex, SegmentAccumulator } from '../../indexes/lexical/lexical.js';
import { AnalysisMemo } from '../../indexes/lexical/lexical-analysis.js';
import { lexicalDoc, type ChunkRecord } from '../chunks/index-manager.js';
import { ChunkRecordEncoder } from '../chunks/chunk-codec.js';
import { WORKER_PROTOCOL } from './segment-builder.js';

type In =
  | { op: 'records'; job: number; chunks: boolean; reuse?: boolean; records: ChunkRecord[] }
  | { op: 'build'; job: number; chunks: boolean };

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

if (parentPort) {
  const port = parentPort;
  /** Chunk analyses of `reuse` jobs (the deltas of updates; segment-builder.ts). */
  const memo = new AnalysisMemo();
  const jobs = new Map<number, { acc: SegmentAccumulator; records: ChunkRecordEncoder | undefined; failed?: Error }>();
  const jobOf = (job: number, chunks: boolean) => {
    let j = jobs.get(job);
    if (!j) {
      j = { acc: new SegmentAccumulator(), records: chunks ? new ChunkRecordEncoder() : undefined };
      jobs.set(job, j);
    }
    return j;
  };
  port.on('message', (m: In) => {
    const j = jobOf(m.job, m.chunks);
    try {
      if (m.op === 'records') {
        if (j.failed) return;
        for (const r of m.records) j.acc.add(lexicalDoc(r), m.reuse ? memo : undefined);
        if (j.records) for (const r of m.records) j.records.add(r);
        return;
      }
      jobs.delete(m.job);
      if (j.failed) throw j.failed;
      const t0 = performance.now();
      const lex = LexicalIndex.fromData(j.acc.finish()).toBinary();
      const chunks = j.records?.finish();
      const transfer = [lex.buffer as ArrayBuffer, ...(chunks ? [chunks.buffer as ArrayBuffer] : [])];
      port.postMessage(
        {
          op: 'built',
          job: m.job,
          lex,
          lexSha: sha(lex),
          ...(chunks ? { chunks, chunksSha: sha(chunks) } : {}),
          ms: performance.now() - t0,
        },
        transfer,
      );
    } catch (e) {
      if (m.op === 'records') j.failed = e as Error;
      else port.postMessage({ op: 'error', job: m.job, message: (e as Error)?.message ?? String(e) });
    }
  });
  port.postMessage({ op: 'hello', protocol: WORKER_PROTOCOL });
}
