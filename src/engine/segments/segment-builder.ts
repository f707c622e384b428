// Builds keyword segments, in a worker thread when the bundled worker script is available
// (dist/lexical-worker.js next to the running bundle, or an explicit path), else on the calling
// thread. Records are posted in slices with a turn of the event loop between them, and the built
// segment comes back as transferred bytes, so the main thread never blocks for long.
// deps: indexes, engine/index-manager, node:worker_threads (+ node:fs/node:url to find the script).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../core/ports.js';
import { LEXICAL_BINARY_VERSION, LexicalIndex, SegmentAccumulator } from '../../indexes/lexical/lexical.js';
import { AnalysisMemo } from '../../indexes/lexical/lexical-analysis.js';
import type { ArtifactInfo } from '../../indexes/manifest/manifest.js';
import { TOKENIZER_VERSION } from '../../core/tokenize.js';
import { INDEX_FORMAT_VERSION, lexicalDoc, type ChunkRecord } from '../chunks/index-manager.js';
import { ChunkRecordEncoder, encodeChunkRecords } from '../chunks/chunk-codec.js';
import type { SpillTarget } from './spill-build.js';
import type { SpilledFile } from './spill.js';

/** Versions a host checks before trusting a worker (a stale bundle must not build segments). */
export const WORKER_PROTOCOL = `${LEXICAL_BINARY_VERSION}/${TOKENIZER_VERSION}/${INDEX_FORMAT_VERSION}/4`;
const SLICE = 2000;

/** A built segment with its persisted bytes and their checksums. */
export interface BuiltSegment {
  readonly lexical: LexicalIndex;
  readonly lexBytes: Uint8Array;
  readonly lexInfo: ArtifactInfo;
  /** Chunk-record artifact bytes of the records (service/chunk-codec.ts; when asked for). */
  readonly chunksBytes?: Uint8Array;
  readonly chunksInfo?: ArtifactInfo;
  readonly where: 'worker' | 'inline';
  readonly ms: number;
}

/**
 * The worker script next to the running bundle (dist/cli.cjs or dist/chunks/* → dist/lexical-worker.js),
 * if any. The same lookup as platform/bundle-file.ts, kept here because the engine imports no
 * adapter (docs/ARCHITECTURE.md); a composition root may name the script instead (`lexicalWorker`).
 */
function defaultWorkerScript(): string | undefined {
  const candidates: string[] = [];
  try {
    candidates.push(fileURLToPath(new URL('./lexical-worker.js', import.meta.url)));
    // dist/cli.cjs is split: shared code runs from dist/chunks/, the worker sits one folder up.
    candidates.push(fileURLToPath(new URL('../lexical-worker.js', import.meta.url)));
  } catch {
    /* a CommonJS bundle has no import.meta.url */
  }
  if (typeof __dirname === 'string') candidates.push(join(__dirname, 'lexical-worker.js'));
  return candidates.find((p) => existsSync(p));
}

const sha = (b: Uint8Array): ArtifactInfo => ({
  sha256: createHash('sha256').update(b).digest('hex'),
  bytes: b.byteLength,
});
const turn = () => new Promise<void>((r) => setImmediate(r));

type Reply =
  | { op: 'hello'; protocol: string }
  | { op: 'built'; job: number; lex: Uint8Array; lexSha: string; chunks?: Uint8Array; chunksSha?: string; ms: number }
  | { op: 'built-files'; job: number; lex: SpilledFile; chunks: SpilledFile; ms: number }
  | { op: 'error'; job: number; message: string }
  | { op: 'took'; job: number };

/** A streamed segment the worker wrote to the index folder (spill-build.ts) instead of handing its bytes over. */
export interface SpilledSegment {
  readonly files: { readonly lex: SpilledFile; readonly chunks: SpilledFile };
  readonly where: 'worker';
  readonly ms: number;
}

/** What a {@link SegmentStream} gives: the bytes, or (asked to spill, in the worker) the files. */
export type StreamedSegment =
  (BuiltSegment & { readonly chunksBytes: Uint8Array; readonly chunksInfo: ArtifactInfo }) | SpilledSegment;

/** A segment built from records fed in batches ({@link SegmentBuilder.stream}). */
export interface SegmentStream {
  /** Fold `records` in (after every earlier batch). */
  add(records: readonly ChunkRecord[]): Promise<void>;
  /** The segment with its chunk-record artifact; frees the builder for the next job. */
  finish(): Promise<StreamedSegment>;
  /** Give up (frees the builder; a job left in the worker is dropped with it when the worker ends). */
  abort(): void;
}

/** Segment builder with one lazily started worker; jobs run one at a time. */
export class SegmentBuilder {
  readonly #script: string | undefined;
  readonly #logger: Logger;
  #worker: Worker | undefined;
  #ready: Promise<Worker | undefined> | undefined;
  #failures = 0;
  #job = 0;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  /** Streamed jobs: called when the worker took one `records` message. */
  readonly #acks = new Map<number, (failed?: Error) => void>();
  /** Chunk analyses of `reuse` builds on this thread (the worker keeps its own). */
  readonly #memo = new AnalysisMemo();

  /** @param script worker script path; `false` = always build on the calling thread; undefined = {@link defaultWorkerScript}. */
  constructor(options: { script?: string | false; logger: Logger }) {
    this.#script = options.script === false ? undefined : (options.script ?? defaultWorkerScript());
    this.#logger = options.logger;
  }

  /** `worker` when builds can run off the main thread. */
  get mode(): 'worker' | 'inline' {
    return this.#script && this.#failures < 2 ? 'worker' : 'inline';
  }

  /**
   * Build a segment over `records`. `offThread` asks for the worker (falls back to this thread
   * when it is unavailable); small deltas are cheaper here than a round trip. `reuse` (the delta of
   * an update) takes the keyword analysis of chunks seen in earlier reuse builds from the building
   * thread's memo (indexes/lexical/lexical-analysis.ts; B46): the segment is the same, only chunks whose
   * text changed are tokenised. Full builds and compactions leave the memo alone (bounded memory).
   */
  build(
    records: readonly ChunkRecord[],
    options: { offThread?: boolean; chunks?: boolean; reuse?: boolean } = {},
  ): Promise<BuiltSegment> {
    const run = async (): Promise<BuiltSegment> => {
      const worker = options.offThread ? await this.#start() : undefined;
      if (worker) {
        try {
          return await this.#inWorker(worker, records, options.chunks === true, options.reuse === true);
        } catch (e) {
          this.#failures++;
          this.#logger.warn(
            `keyword build in the worker failed (${(e as Error).message}); building on the main thread`,
          );
        }
      }
      return this.#inline(records, options.chunks === true, options.reuse === true);
    };
    const p = this.#queue.then(run);
    this.#queue = p.catch(() => undefined);
    return p;
  }

  /**
   * Build one segment (with its chunk-record artifact) from records fed in batches, in the order
   * they are to be stored: a full build that never holds every record (issue 46). In the worker
   * when it is available, each batch is posted and dropped here; else folded on this thread as it
   * arrives. The builder runs no other job until {@link SegmentStream.finish} (or `abort`) is called.
   * With `spill`, the worker builds on disk in bounded memory and writes both artifacts to the index
   * folder (spill-build.ts); on this thread (no worker) the bytes come back as without it.
   */
  stream(options: { spill?: SpillTarget } = {}): SegmentStream {
    let release!: () => void;
    const slot = new Promise<void>((r) => (release = r));
    const turnOf = this.#queue.then(async () => {
      const worker = await this.#start();
      return worker;
    });
    this.#queue = slot;
    const t0 = performance.now();
    const job = ++this.#job;
    let acc: SegmentAccumulator | undefined;
    let encoder: ChunkRecordEncoder | undefined;
    let failed: Error | undefined;
    let inFlight = 0;
    let reffed = false;
    let spilling = false;
    let took: (() => void) | undefined;
    this.#acks.set(job, (e) => {
      if (e) failed = e;
      inFlight--;
      took?.();
      took = undefined;
    });
    const inline = () => {
      acc ??= new SegmentAccumulator();
      encoder ??= new ChunkRecordEncoder();
      return { acc, encoder };
    };
    return {
      add: async (records) => {
        if (failed) throw failed;
        const worker = await turnOf;
        if (worker && !acc) {
          // Held for the stream's life: waiting for an acknowledgement must keep the process alive.
          if (!reffed) worker.ref();
          reffed = true;
          // Backpressure: at most one slice waits in the worker's queue beyond the one it folds in.
          for (let i = 0; i < records.length; i += SLICE) {
            while (inFlight >= 2 && !failed) await new Promise<void>((r) => (took = r));
            if (failed) throw failed;
            inFlight++;
            const first = options.spill && !spilling ? { spill: options.spill } : {};
            spilling ||= options.spill !== undefined;
            worker.postMessage({
              op: 'records',
              job,
              chunks: true,
              ack: true,
              ...first,
              records: records.slice(i, i + SLICE),
            });
          }
          return;
        }
        const j = inline();
        for (const r of records) {
          j.acc.add(lexicalDoc(r));
          j.encoder.add(r);
        }
      },
      finish: async () => {
        try {
          const worker = await turnOf;
          if (worker && !acc) {
            const reply = new Promise<Reply>((resolve, reject) => this.#waiting.set(job, { resolve, reject }));
            worker.ref();
            try {
              worker.postMessage({ op: 'build', job, chunks: true });
              const r = await reply;
              if (r.op === 'error') throw new Error(r.message);
              if (r.op === 'built-files') return { files: { lex: r.lex, chunks: r.chunks }, where: 'worker', ms: r.ms };
              if (r.op !== 'built' || !r.chunks || !r.chunksSha) throw new Error(`unexpected worker reply ${r.op}`);
              return {
                lexical: LexicalIndex.fromBinary(r.lex),
                lexBytes: r.lex,
                lexInfo: { sha256: r.lexSha, bytes: r.lex.byteLength },
                chunksBytes: r.chunks,
                chunksInfo: { sha256: r.chunksSha, bytes: r.chunks.byteLength },
                where: 'worker',
                ms: performance.now() - t0,
              };
            } finally {
              this.#waiting.delete(job);
              worker.unref();
            }
          }
          const j = inline();
          const lexical = LexicalIndex.fromData(j.acc.finish());
          const lexBytes = lexical.toBinary();
          const chunksBytes = j.encoder.finish();
          return {
            lexical,
            lexBytes,
            lexInfo: sha(lexBytes),
            chunksBytes,
            chunksInfo: sha(chunksBytes),
            where: 'inline',
            ms: performance.now() - t0,
          };
        } finally {
          this.#acks.delete(job);
          if (reffed) (await turnOf)?.unref();
          release();
        }
      },
      abort: () => {
        failed = new Error('segment stream aborted');
        this.#acks.delete(job);
        // A job on disk removes its files (spill-build.ts abort).
        if (spilling) void turnOf.then((w) => w?.postMessage({ op: 'drop', job }));
        if (reffed) void turnOf.then((w) => w?.unref());
        release();
      },
    };
  }

  #inline(records: readonly ChunkRecord[], chunks: boolean, reuse: boolean): BuiltSegment {
    const t0 = performance.now();
    const acc = new SegmentAccumulator();
    const memo = reuse ? this.#memo : undefined;
    for (const r of records) acc.add(lexicalDoc(r), memo);
    const lexical = LexicalIndex.fromData(acc.finish());
    const lexBytes = lexical.toBinary();
    const chunksBytes = chunks ? encodeChunkRecords(records) : undefined;
    return {
      lexical,
      lexBytes,
      lexInfo: sha(lexBytes),
      ...(chunksBytes ? { chunksBytes, chunksInfo: sha(chunksBytes) } : {}),
      where: 'inline',
      ms: performance.now() - t0,
    };
  }

  async #inWorker(
    worker: Worker,
    records: readonly ChunkRecord[],
    chunks: boolean,
    reuse: boolean,
  ): Promise<BuiltSegment> {
    const t0 = performance.now();
    const job = ++this.#job;
    const reply = new Promise<Reply>((resolve, reject) => this.#waiting.set(job, { resolve, reject }));
    worker.ref();
    try {
      for (let i = 0; i < records.length; i += SLICE) {
        worker.postMessage({ op: 'records', job, chunks, reuse, records: records.slice(i, i + SLICE) });
        await turn();
      }
      worker.postMessage({ op: 'build', job, chunks });
      const r = await reply;
      if (r.op === 'error') throw new Error(r.message);
      if (r.op !== 'built') throw new Error(`unexpected worker reply ${r.op}`);
      const lexical = LexicalIndex.fromBinary(r.lex);
      return {
        lexical,
        lexBytes: r.lex,
        lexInfo: { sha256: r.lexSha, bytes: r.lex.byteLength },
        ...(r.chunks && r.chunksSha
          ? { chunksBytes: r.chunks, chunksInfo: { sha256: r.chunksSha, bytes: r.chunks.byteLength } }
          : {}),
        where: 'worker',
        ms: performance.now() - t0,
      };
    } finally {
      this.#waiting.delete(job);
      worker.unref();
    }
  }

  #start(): Promise<Worker | undefined> {
    if (!this.#script || this.#failures >= 2) return Promise.resolve(undefined);
    if (this.#worker) return Promise.resolve(this.#worker);
    this.#ready ??= new Promise<Worker | undefined>((resolve) => {
      let worker: Worker;
      try {
        worker = new Worker(this.#script!);
      } catch (e) {
        this.#failures = 2;
        this.#logger.warn(`cannot start the keyword worker (${(e as Error).message}); building on the main thread`);
        resolve(undefined);
        return;
      }
      const fail = (e: Error) => {
        this.#worker = undefined;
        this.#ready = undefined;
        this.#failures++;
        for (const w of this.#waiting.values()) w.reject(e);
        for (const a of this.#acks.values()) a(e);
        this.#waiting.clear();
        resolve(undefined);
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`keyword worker exited with code ${code}`)));
      worker.on('message', (m: Reply) => {
        if (m.op === 'hello') {
          if (m.protocol !== WORKER_PROTOCOL) {
            this.#failures = 2;
            this.#logger.warn(
              `keyword worker ${this.#script} speaks ${m.protocol}, expected ${WORKER_PROTOCOL} (stale build?); building on the main thread`,
            );
            void worker.terminate();
            resolve(undefined);
            return;
          }
          this.#worker = worker;
          worker.unref();
          resolve(worker);
          return;
        }
        if (m.op === 'took') this.#acks.get(m.job)?.();
        else this.#waiting.get(m.job)?.resolve(m);
      });
    });
    return this.#ready;
  }

  /** Stop the worker (pending builds fail over to this thread). */
  async dispose(): Promise<void> {
    const w = this.#worker;
    this.#worker = undefined;
    this.#ready = undefined;
    this.#failures = 2;
    if (w) {
      w.removeAllListeners('exit');
      await w.terminate();
    }
  }
}
