// Worker-thread entry (bundled to dist/lexical-worker.js): builds keyword segments off the main
// thread, so that a compaction or a full rebuild (seconds for 50k chunks) never stalls recall.
// Protocol (see segment-builder.ts): `hello` on start; then per job any number of `records`
// messages followed by one `build`; the answer carries the segment (and optionally the chunk-record artifact)
// bytes with their SHA-256, transferred, not copied. A `records` message with `ack` is answered with
// `took` once folded in (a streamed build waits for it: the sender never runs ahead of the worker). Records are folded into the keyword segment as
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
import { SpilledSegmentJob, type SpillTarget } from './spill-build.js';

type In =
  | {
      op: 'records';
      job: number;
      chunks: boolean;
      reuse?: boolean;
      ack?: boolean;
      /** A streamed build on disk (spill-build.ts): given on the job's first message. */
      spill?: SpillTarget;
      records: ChunkRecord[];
    }
  | { op: 'build'; job: number; chunks: boolean }
  | { op: 'drop'; job: number; chunks?: undefined };

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

if (parentPort) {
  const port = parentPort;
  /** Chunk analyses of `reuse` jobs (the deltas of updates; segment-builder.ts). */
  const memo = new AnalysisMemo();
  const jobs = new Map<
    number,
    {
      acc: SegmentAccumulator | undefined;
      records: ChunkRecordEncoder | undefined;
      spilled?: SpilledSegmentJob;
      failed?: Error;
    }
  >();
  const jobOf = (m: In) => {
    let j = jobs.get(m.job);
    if (!j) {
      const spill = m.op === 'records' ? m.spill : undefined;
      j = spill
        ? { acc: undefined, records: undefined, spilled: new SpilledSegmentJob(spill) }
        : { acc: new SegmentAccumulator(), records: m.chunks === true ? new ChunkRecordEncoder() : undefined };
      jobs.set(m.job, j);
    }
    return j;
  };
  port.on('message', (m: In) => {
    if (m.op === 'drop') {
      jobs.get(m.job)?.spilled?.abort();
      jobs.delete(m.job);
      return;
    }
    let j: ReturnType<typeof jobOf> | undefined;
    try {
      j = jobOf(m);
      if (m.op === 'records') {
        if (j.failed) return;
        if (j.spilled) return j.spilled.add(m.records);
        for (const r of m.records) j.acc!.add(lexicalDoc(r), m.reuse ? memo : undefined);
        if (j.records) for (const r of m.records) j.records.add(r);
        return;
      }
      jobs.delete(m.job);
      if (j.failed) throw j.failed;
      if (j.spilled) {
        const t0 = performance.now();
        port.postMessage({ op: 'built-files', job: m.job, ...j.spilled.finish(), ms: performance.now() - t0 });
        return;
      }
      const t0 = performance.now();
      const data = j.acc!.finish();
      j.acc = undefined; // folded: what the segment data does not hold of it can go before the segment is encoded
      const lex = LexicalIndex.fromData(data).toBinary();
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
      if (m.op === 'records' && j) j.failed = e as Error;
      else if (m.op === 'records') jobs.set(m.job, { acc: undefined, records: undefined, failed: e as Error });
      else port.postMessage({ op: 'error', job: m.job, message: (e as Error)?.message ?? String(e) });
      if (m.op === 'records') j?.spilled?.abort();
    } finally {
      // Acknowledged even when the job failed: the sender then stops waiting and `build` reports the error.
      if (m.op === 'records' && m.ack) port.postMessage({ op: 'took', job: m.job });
    }
  });
  port.postMessage({ op: 'hello', protocol: WORKER_PROTOCOL });
}
