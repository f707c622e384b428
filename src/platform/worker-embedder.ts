// WorkerEmbedder: the ONNX embedder with its session in a worker thread (platform/embed-worker.ts,
// bundled next to the running bundle as embed-worker.js), for long-lived hosts such as the language
// server: onnxruntime's session.run blocks the thread that calls it, so on the main thread a long
// re-embed would stall every editor request. Metadata (model id, dims, fingerprint, tokenizer) comes
// from an OnnxEmbedder made here, which never loads the native runtime; when the worker script is
// missing or the worker fails twice, that embedder runs inline instead.
// deps: core, indexes, node:worker_threads (+ node:fs/node:url to find the script).
import { Worker } from 'node:worker_threads';
import { bundleFile } from './bundle-file.js';
import { MemoryError, type MemoryErrorCode } from '../core/errors.js';
import type { Logger } from '../core/ports.js';
import { embedderUnavailable, type Embedder } from '../indexes/embed/embedder.js';
import {
  createOnnxEmbedder,
  disableRuntimeTelemetry,
  type OnnxEmbedder,
  type OnnxEmbedderOptions,
} from '../indexes/embed/onnx-embedder.js';

/** Bump when the messages below change (a stale bundle must not be used). */
export const EMBED_WORKER_PROTOCOL = 'gitmem-embed-worker/1';

type ErrorJson = { code: MemoryErrorCode; message: string; hint?: string; data?: Record<string, unknown> };
/** Host → worker. */
export type EmbedWorkerIn = { op: 'embed'; job: number; texts: string[] };
/** Worker → host. */
export type EmbedWorkerOut =
  | { op: 'hello'; protocol: string; fingerprint: string; error?: ErrorJson }
  | { op: 'vectors'; job: number; data: Float32Array }
  | { op: 'error'; job: number; error: ErrorJson };

/** dist/embed-worker.js beside the running bundle (platform/bundle-file.ts), if any. */
const defaultEmbedWorkerScript = (): string | undefined => bundleFile('embed-worker.js');

const fromJson = (e: ErrorJson) =>
  new MemoryError(e.code, e.message, { ...(e.data ? { data: e.data } : {}), ...(e.hint ? { hint: e.hint } : {}) });

/** An {@link Embedder} whose `embed` runs in a worker thread (falls back to this thread). */
export class WorkerEmbedder implements Embedder {
  readonly modelId: string;
  readonly dims: number;
  readonly fingerprint: string;
  readonly #inline: OnnxEmbedder;
  readonly #options: OnnxEmbedderOptions;
  readonly #script: string | undefined;
  readonly #logger: Logger | undefined;
  #worker: Promise<Worker | undefined> | undefined;
  #failures = 0;
  #job = 0;
  /** Set while {@link dispose} waits for jobs in flight; new jobs wait for it, then start a new worker. */
  #disposing: Promise<void> | undefined;
  readonly #waiting = new Map<number, { resolve: (v: Float32Array[]) => void; reject: (e: Error) => void }>();

  /** @internal use {@link createWorkerEmbedder}. */
  constructor(
    inline: OnnxEmbedder,
    options: OnnxEmbedderOptions,
    script: string | undefined,
    logger: Logger | undefined,
  ) {
    this.#inline = inline;
    // The worker opens the same folder: it gets the hashes taken here instead of hashing it again.
    this.#options = { ...options, modelDir: inline.modelDir, fileHashes: inline.fileHashes };
    this.#script = script;
    this.#logger = logger;
    this.modelId = inline.modelId;
    this.dims = inline.dims;
    this.fingerprint = inline.fingerprint;
  }

  /**
   * Load the runtime and model now, where embedding runs (a one-text embedding), so a host reports
   * the state it really has (see {@link Embedder.load}). @throws MemoryError `embedder.unavailable`.
   */
  async load(): Promise<void> {
    await this.embed(['']);
  }

  /** True when the shipped model's SHA-256 matched (the inline embedder checked the files). */
  get verified(): boolean {
    return this.#inline.verified;
  }

  /** `worker` while embedding runs off the calling thread; `inline` after a fallback. */
  get mode(): 'worker' | 'inline' {
    return this.#script && this.#failures < 2 ? 'worker' : 'inline';
  }

  /**
   * Embed `texts` in order (see {@link Embedder.embed}); jobs run one at a time in the worker.
   * @throws MemoryError `embedder.unavailable` as the inline embedder would.
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    while (this.#disposing) await this.#disposing;
    const worker = await this.#start();
    if (!worker) return this.#inline.embed(texts);
    const job = ++this.#job;
    const done = new Promise<Float32Array[]>((resolve, reject) => this.#waiting.set(job, { resolve, reject }));
    worker.ref();
    try {
      worker.postMessage({
        op: 'embed',
        job,
        texts: texts.map((t) => (typeof t === 'string' ? t : String(t))),
      } satisfies EmbedWorkerIn);
      return await done;
    } finally {
      this.#waiting.delete(job);
      if (this.#waiting.size === 0) worker.unref();
    }
  }

  #start(): Promise<Worker | undefined> {
    if (!this.#script || this.#failures >= 2) return Promise.resolve(undefined);
    this.#worker ??= new Promise<Worker | undefined>((resolve) => {
      let worker: Worker;
      try {
        // A worker's process.env is its own copy: setting the variable there never reaches the
        // native runtime's getenv. Set it in the real environment before the worker inherits it.
        disableRuntimeTelemetry();
        worker = new Worker(this.#script!, { workerData: this.#options });
      } catch (e) {
        this.#failures = 2;
        this.#logger?.warn(`cannot start the embedding worker (${(e as Error).message}); embedding on the main thread`);
        resolve(undefined);
        return;
      }
      worker.unref();
      let failed = false;
      const fail = (e: Error) => {
        if (failed) return;
        failed = true;
        this.#worker = undefined;
        this.#failures++;
        const pending = [...this.#waiting.values()];
        this.#waiting.clear();
        for (const w of pending)
          w.reject(embedderUnavailable('runtime-failed', `embedding worker failed: ${e.message}`, { cause: e }));
        resolve(undefined);
      };
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`embedding worker exited with code ${code}`)));
      worker.on('message', (m: EmbedWorkerOut) => {
        if (m.op === 'hello') {
          if (m.protocol !== EMBED_WORKER_PROTOCOL || (!m.error && m.fingerprint !== this.fingerprint)) {
            this.#failures = 2;
            this.#logger?.warn(
              `embedding worker ${this.#script} speaks ${m.protocol} with model ${m.fingerprint.slice(0, 12)} (stale build?); embedding on the main thread`,
            );
            worker.removeAllListeners('exit');
            void worker.terminate();
            this.#worker = undefined;
            resolve(undefined);
            return;
          }
          // A worker that cannot open the model answers every job with that error (same as inline).
          resolve(worker);
          return;
        }
        const w = this.#waiting.get(m.job);
        if (!w) return;
        if (m.op === 'error') w.reject(fromJson(m.error));
        else
          w.resolve(
            Array.from({ length: m.data.length / this.dims }, (_, i) =>
              m.data.subarray(i * this.dims, (i + 1) * this.dims),
            ),
          );
      });
    });
    return this.#worker;
  }

  /**
   * Stop the worker once the jobs in flight have finished (terminating a worker in the middle of a
   * session run aborts the whole process in onnxruntime-node); a later `embed` starts a new one.
   */
  async dispose(): Promise<void> {
    while (this.#disposing) await this.#disposing;
    const stop = async () => {
      const w = await this.#worker;
      if (w) {
        const pending = [...this.#waiting.values()].map(
          (p) =>
            new Promise<void>((r) => {
              const { resolve, reject } = p;
              p.resolve = (v) => (resolve(v), r());
              p.reject = (e) => (reject(e), r());
            }),
        );
        await Promise.all(pending);
        w.removeAllListeners('exit');
        this.#worker = undefined;
        await w.terminate();
      }
      await this.#inline.dispose();
    };
    this.#disposing = stop().finally(() => {
      this.#disposing = undefined;
    });
    await this.#disposing;
  }
}

/**
 * Open the model folder (as {@link createOnnxEmbedder}: checks files, hashes them, no native load)
 * and return an embedder that runs in a worker thread from `script` (default
 * {@link defaultEmbedWorkerScript}; `false` = always inline).
 * @throws MemoryError `embedder.unavailable` (`model-missing`, `model-invalid`).
 */
export async function createWorkerEmbedder(
  options: OnnxEmbedderOptions & { script?: string | false; logger?: Logger },
): Promise<WorkerEmbedder> {
  const { script, logger, ...onnx } = options;
  const inline = await createOnnxEmbedder(onnx);
  return new WorkerEmbedder(
    inline,
    onnx,
    script === false ? undefined : (script ?? defaultEmbedWorkerScript()),
    logger,
  );
}

/**
 * Bulk embedding over several workers, each with its own session of ONE intra-op thread: every
 * `embed` call is dealt out round-robin (text i to worker i mod n), so length-sorted input gives
 * each worker an equally long, still sorted share, and the shares run at the same time. On a busy
 * two-core machine two single-thread sessions do more per CPU-second than one session whose two
 * threads meet at a barrier after every operator (measured in `npm run bench -- --only embed`).
 * Vectors are the same as from one session: each text is embedded on its own row.
 */
export class WorkerPoolEmbedder implements Embedder {
  readonly modelId: string;
  readonly dims: number;
  readonly fingerprint: string;
  readonly #members: readonly WorkerEmbedder[];

  /** @internal use {@link createWorkerEmbedder} with `workers`. */
  constructor(members: readonly WorkerEmbedder[]) {
    this.#members = members;
    this.modelId = members[0]!.modelId;
    this.dims = members[0]!.dims;
    this.fingerprint = members[0]!.fingerprint;
  }

  /** Workers in the pool. */
  get size(): number {
    return this.#members.length;
  }

  /** True when the shipped model's SHA-256 matched. */
  get verified(): boolean {
    return this.#members[0]!.verified;
  }

  /**
   * Load the runtime and model in the first worker (see {@link Embedder.load}): that proves they
   * load in this process. The other workers start with the first `embed` that deals them a share,
   * so a `gitmem index` with nothing to embed starts one worker, not the whole pool.
   */
  async load(): Promise<void> {
    await this.#members[0]!.load();
  }

  /**
   * Embed `texts` in order (see {@link Embedder.embed}); fewer than {@link POOL_MIN_SHARE} texts
   * per worker use fewer workers. @throws MemoryError `embedder.unavailable` as one worker would.
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const n = Math.max(1, Math.min(this.#members.length, Math.floor(texts.length / POOL_MIN_SHARE)));
    const shares = Array.from({ length: n }, (_, w) => texts.flatMap((_t, i) => (i % n === w ? [i] : [])));
    const out = new Array<Float32Array>(texts.length);
    const parts = await Promise.all(shares.map((idx, w) => this.#members[w]!.embed(idx.map((i) => texts[i]!))));
    parts.forEach((vecs, w) => shares[w]!.forEach((i, k) => (out[i] = vecs[k]!)));
    return out;
  }

  /** Stop every worker (each after its job in flight). */
  async dispose(): Promise<void> {
    await Promise.all(this.#members.map((m) => m.dispose()));
  }
}

/** Least texts a pool worker gets per call (below it, one session runs the call alone). */
const POOL_MIN_SHARE = 4;

/**
 * Open the model folder once and make a pool of `workers` worker embedders of one intra-op thread
 * each (see {@link WorkerPoolEmbedder}); they share the metadata and the inline fallback.
 * @throws MemoryError `embedder.unavailable` (`model-missing`, `model-invalid`).
 */
export async function createWorkerPoolEmbedder(
  options: OnnxEmbedderOptions & { workers: number; script?: string | false; logger?: Logger },
): Promise<WorkerPoolEmbedder> {
  const { script, logger, workers, ...rest } = options;
  const onnx = { ...rest, intraOpNumThreads: 1 };
  const inline = await createOnnxEmbedder(onnx);
  const path = script === false ? undefined : (script ?? defaultEmbedWorkerScript());
  return new WorkerPoolEmbedder(
    Array.from({ length: Math.max(1, Math.floor(workers)) }, () => new WorkerEmbedder(inline, onnx, path, logger)),
  );
}

/**
 * An embedder factory for `MemoryDeps.createEmbedder` that runs the session in a worker thread, for
 * long-lived hosts (the language server, `gitmem index`), where a re-embed on the main thread would
 * stall every request. The process entry constructs it; the application never imports this module.
 * @param options.threads intra-op threads, overriding config `model.threads` (the language server
 *   uses 1 so that on two cores one stays free for editor requests while it embeds).
 * @param options.script the worker script (default {@link defaultEmbedWorkerScript}).
 * @param options.bulk bulk indexing (`gitmem index`): the threads become that many workers of one
 *   thread each ({@link WorkerPoolEmbedder}); with config `model.bulkGraph` (the factory's fourth
 *   argument) they also switch to the fp32 graph, see {@link OnnxEmbedderOptions.bulkGraph}.
 * @returns `(modelDir, threads, logger, model) => Promise<Embedder>`; rejects with
 *   `embedder.unavailable` (`model-missing`) when no model folder is configured.
 */
export function workerEmbedderFactory(
  options: { threads?: number; script?: string; bulk?: boolean } = {},
): (
  modelDir: string | undefined,
  threads: number,
  logger?: Logger,
  model?: { readonly bulkGraph: boolean },
) => Promise<Embedder> {
  return (modelDir, threads, logger, model) => {
    if (!modelDir)
      return Promise.reject(embedderUnavailable('model-missing', 'no embedding model folder is configured'));
    const common = {
      modelDir,
      ...(logger ? { logger } : {}),
      ...(options.script !== undefined ? { script: options.script } : {}),
    };
    const n = options.threads ?? threads;
    const fp32 = options.bulk === true && model?.bulkGraph === true ? { bulkGraph: true } : {};
    return options.bulk && n > 1
      ? createWorkerPoolEmbedder({ ...common, workers: n, ...fp32 })
      : createWorkerEmbedder({ ...common, intraOpNumThreads: n, ...fp32 });
  };
}
