// Worker-thread entry (bundled to dist/lexical-worker.js): builds keyword segments off the main
// thread, so that a compaction or a full rebuild (seconds for 50k chunks) never stalls recall.
// Protocol (see segment-builder.ts): `hello` on start; then per job any number of `records`
// messages followed by one `build`; the answer carries the segment (and optionally the chunk-record artifact)
// bytes with their SHA-256, transferred, not copied. deps: indexes, engine/index-manager, node:*.
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { LexicalIndex } from '../indexes/lexical.js';
import { lexicalDoc, type ChunkRecord } from './index-manager.js';
import { encodeChunkRecords } from './chunk-codec.js';
import { WORKER_PROTOCOL } from './segment-builder.js';

type In = { op: 'records'; job: number; records: ChunkRecord[] } | { op: 'build'; job: number; chunks: boolean };

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

if (parentPort) {
  const port = parentPort;
  const pending = new Map<number, ChunkRecord[]>();
  port.on('message', (m: In) => {
    try {
      if (m.op === 'records') {
        const list = pending.get(m.job) ?? [];
        for (const r of m.records) list.push(r);
        pending.set(m.job, list);
        return;
      }
      const records = pending.get(m.job) ?? [];
      pending.delete(m.job);
      const t0 = performance.now();
      const lex = LexicalIndex.build(records.map(lexicalDoc), { lunr: false }).toBinary();
      const chunks = m.chunks ? encodeChunkRecords(records) : undefined;
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
      port.postMessage({ op: 'error', job: m.job, message: (e as Error)?.message ?? String(e) });
    }
  });
  port.postMessage({ op: 'hello', protocol: WORKER_PROTOCOL });
}
