// OnnxEmbedder: all-MiniLM-L6-v2 (4-bit ONNX) through onnxruntime-node — the ONLY importer of that
// package, loaded lazily with `await import()`. WordPiece → session.run (queued, one at a time) →
// attention-mask mean pooling → L2 normalisation (the batch's tensors in and out: embed-tensors.ts).
// Reads the model folder with node:fs; no network.
// deps: onnxruntime-node, node:crypto, node:fs, node:path, core (errors, model-sha256.json),
// indexes (embedder, wordpiece, fp32-graph, model-hashes, embed-tensors).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type * as Ort from 'onnxruntime-node';
import { isMemoryError } from '../../core/errors.js';
import { embedFingerprint, embedderUnavailable, type Embedder } from './embedder.js';
import SHIPPED_MODEL from '../../core/model-sha256.json' with { type: 'json' };
import { DEFAULT_MAX_LENGTH, WordPieceTokenizer } from './wordpiece.js';
import { deriveFp32Graph } from './fp32-graph.js';
import { modelFileHashes, type ModelHashStore } from './model-hashes.js';
import { int64Inputs, meanPoolNormalize } from './embed-tensors.js';

/** Model id of the shipped model (the folder name the set-up script installs). */
const DEFAULT_MODEL_ID = 'all-MiniLM-L6-v2-q4';
/** Output width of all-MiniLM-L6-v2. */
const MINILM_DIMS = 384;
/** Texts per `session.run` by default (length-sorted; see `npm run bench` for the measurement). */
export const DEFAULT_BATCH_SIZE = 8;
/**
 * With {@link OnnxEmbedderOptions.bulkGraph}: texts embedded on the shipped graph before the fp32
 * graph is derived and loaded. Deriving and loading it costs ~1–2 CPU-s, which a 200-chunk run does
 * not earn back (measured: 10.6 → 10.1 chunks per CPU-s with a switch after 64), so only long runs switch.
 */
export const BULK_AFTER_TEXTS = 512;
/** Graph file inside the model folder; its weights sit beside it in `model_q4.onnx_data`. */
const MODEL_GRAPH = 'onnx/model_q4.onnx';
const MODEL_DATA = 'onnx/model_q4.onnx_data';
const VOCAB = 'vocab.txt';

/** Options of {@link createOnnxEmbedder}. */
export interface OnnxEmbedderOptions {
  /** Folder holding `onnx/model_q4.onnx`, its `.onnx_data` and `vocab.txt` (absolute or cwd-relative). */
  readonly modelDir: string;
  /** Default {@link DEFAULT_MODEL_ID}. Part of the fingerprint. */
  readonly modelId?: string;
  /** Vector width the graph produces. Default {@link MINILM_DIMS}; a different output is `model-invalid`. */
  readonly dims?: number;
  /** onnxruntime intra-op threads. Default 2 (the query path); use 1 for background indexing. */
  readonly intraOpNumThreads?: number;
  /**
   * Let idle intra-op threads spin-wait for work. Default false: on a busy 2-core machine spinning
   * burns the CPU the other thread (or the editor) needs; measured in `npm run bench`.
   */
  readonly allowSpinning?: boolean;
  /**
   * Texts per `session.run`, after sorting a call's texts by word-piece count so each batch pads
   * only to its own longest text. Default {@link DEFAULT_BATCH_SIZE}; 1 runs every text alone.
   */
  readonly batchSize?: number;
  /** Word-pieces per text including [CLS]/[SEP]. Default 256 (the model's max_seq_length). */
  readonly maxLength?: number;
  /**
   * Bulk indexing: after {@link BULK_AFTER_TEXTS} texts, run the fp32 graph derived in memory from
   * the shipped 4-bit one (indexes/embed/fp32-graph.ts; same vectors, cosine ≥ 0.999 per text, faster on
   * CPUs without fast 4-bit kernels — measured in `npm run bench -- --only embed`). Costs ~90 MB
   * more memory while it runs; nothing is written to disk. The fingerprint is unchanged. Default false.
   */
  readonly bulkGraph?: boolean;
  /** Where the model files' hashes are remembered by stat (indexes/embed/model-hashes.ts); default: hash every time. */
  readonly hashStore?: ModelHashStore;
  /**
   * SHA-256 hex of the graph and weights files as an embedder of this same process just took them
   * ({@link OnnxEmbedder.fileHashes}): the embedding worker gets its host's, so a worker does not
   * read and hash the 54 MB weights again. They are checked against the shipped list as usual.
   */
  readonly fileHashes?: readonly [graph: string, weights: string];
}

/** The session plus its run queue, shared by every embedder with the same graph and thread count. */
interface SharedSession {
  readonly session: Ort.InferenceSession;
  readonly ort: typeof Ort;
  /** Tail of the run queue: each run starts after the previous settles (no overlapping runs). */
  queue: Promise<unknown>;
  refs: number;
  /** Set by {@link releaseOnnxSessions}; holders then acquire a new session. */
  released: boolean;
}

// One InferenceSession per (graph, threads) per process, reused by every embedder that asks for it
// and kept for the life of the process: creating and releasing sessions repeatedly leaks native
// memory in onnxruntime (bad-inputs B26), so dispose() only drops a reference.
const sessions = new Map<string, Promise<SharedSession>>();
let sessionsCreated = 0;

/** Diagnostics for tests and `doctor`: live sessions and how many were ever created in this process. */
export function onnxSessionStats(): { readonly live: number; readonly created: number } {
  return { live: sessions.size, created: sessionsCreated };
}

let ortModule: Promise<typeof Ort> | undefined;

/**
 * Switch off onnxruntime's own usage telemetry. Its official builds enable it by default: they keep
 * a device id and queued events under `~/.cache/Microsoft/DeveloperTools/.onnxruntime/` and try to
 * upload them, and with it on a process whose command line is longer than ~30 KB crashes inside the
 * runtime (SIGSEGV). The runtime reads `ORT_DISABLE_TELEMETRY` once, when it initialises, and the
 * Node binding has no API for it, so it must be set before the first load. gitmem sends nothing
 * anywhere, so this overrides any value the environment had. Every host (CLI, language server, MCP
 * server, library) loads the runtime only through {@link loadOrt}, which calls this first.
 */
export function disableRuntimeTelemetry(): void {
  process.env.ORT_DISABLE_TELEMETRY = '1';
}

/** Import onnxruntime-node once; a failure is remembered as `runtime-missing` and retried next call. */
async function loadOrt(): Promise<typeof Ort> {
  disableRuntimeTelemetry();
  ortModule ??= import('onnxruntime-node').then(
    (m) => ((m as unknown as { default?: typeof Ort }).default ?? m) as typeof Ort,
  );
  try {
    return await ortModule;
  } catch (cause) {
    ortModule = undefined;
    throw embedderUnavailable('runtime-missing', `onnxruntime-node could not be loaded: ${(cause as Error).message}`, {
      cause,
      hint: 'reinstall dependencies (npm ci); onnxruntime-node ships CPU binaries for linux/darwin/win32 x64 and arm64',
    });
  }
}

/** Bytes read per step while hashing a model file (one buffer per file, above malloc's mmap threshold). */
const HASH_READ_BYTES = 1 << 20;

/**
 * SHA-256 hex of a file, read through one reused buffer. A read stream would allocate a fresh 64 KB
 * buffer per step: for the 54 MB weights file that is ~850 buffers of malloc's small-block heap,
 * which the C library keeps after they are freed, and a serving process carried ~30 MB more RSS for
 * it (measured in `npm run bench`, the serving figure). A 1 MiB buffer is mapped and unmapped whole.
 */
async function hashFile(path: string): Promise<string> {
  const h = createHash('sha256');
  const buf = Buffer.allocUnsafeSlow(HASH_READ_BYTES);
  const fh = await open(path, 'r');
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      h.update(buf.subarray(0, bytesRead));
    }
  } finally {
    await fh.close();
  }
  return h.digest('hex');
}

/**
 * Sentence embedder over an ONNX BERT model. Create with {@link createOnnxEmbedder}; the native
 * runtime and session load on the first {@link OnnxEmbedder.embed} (or {@link OnnxEmbedder.load}).
 */
export class OnnxEmbedder implements Embedder {
  readonly modelId: string;
  readonly dims: number;
  readonly fingerprint: string;
  /** Absolute model folder. */
  readonly modelDir: string;
  /** Intra-op thread count of this embedder's session. */
  readonly threads: number;
  /** Whether idle intra-op threads spin-wait (see {@link OnnxEmbedderOptions.allowSpinning}). */
  readonly spinning: boolean;
  /** Texts per `session.run`. */
  readonly batchSize: number;
  /** SHA-256 hex of graph + weights, as used in the fingerprint. */
  readonly weightsHash: string;
  /** SHA-256 hex of vocab.txt. */
  readonly vocabHash: string;
  /** SHA-256 hex of the graph file and of the weights file (see {@link OnnxEmbedderOptions.fileHashes}). */
  readonly fileHashes: readonly [graph: string, weights: string];
  /** True when the folder is the shipped model and its graph, weights and vocabulary matched their SHA-256. */
  readonly verified: boolean;
  readonly #tokenizer: WordPieceTokenizer;
  readonly #batchSize: number;
  readonly #maxLength: number;
  readonly #bulkGraph: boolean;
  #embeddedTexts = 0;
  #shared: SharedSession | undefined;
  #loading: Promise<SharedSession> | undefined;
  #bulk: Promise<SharedSession> | undefined;

  /** @internal use {@link createOnnxEmbedder}. */
  constructor(args: {
    modelDir: string;
    modelId: string;
    dims: number;
    threads: number;
    spinning: boolean;
    batchSize: number;
    maxLength: number;
    tokenizer: WordPieceTokenizer;
    fileHashes: readonly [string, string];
    vocabHash: string;
    verified?: boolean;
    bulkGraph?: boolean;
  }) {
    this.#bulkGraph = args.bulkGraph === true;
    this.modelDir = args.modelDir;
    this.modelId = args.modelId;
    this.dims = args.dims;
    this.threads = args.threads;
    this.spinning = args.spinning;
    this.batchSize = args.batchSize;
    this.#batchSize = args.batchSize;
    this.#maxLength = args.maxLength;
    this.#tokenizer = args.tokenizer;
    this.fileHashes = args.fileHashes;
    this.weightsHash = createHash('sha256').update(args.fileHashes[0]).update(args.fileHashes[1]).digest('hex');
    this.vocabHash = args.vocabHash;
    this.verified = args.verified === true;
    this.fingerprint = embedFingerprint({
      modelId: args.modelId,
      weightsHash: this.weightsHash,
      dims: args.dims,
      vocabHash: args.vocabHash,
    });
  }

  /** The tokenizer (exposed for token counting and tests). */
  get tokenizer(): WordPieceTokenizer {
    return this.#tokenizer;
  }

  /** True once the session is loaded. */
  get loaded(): boolean {
    return this.#shared !== undefined;
  }

  /**
   * Import onnxruntime-node and create (or reuse) the session. Idempotent; `embed` calls it.
   * @throws MemoryError `embedder.unavailable` (`runtime-missing` when the binding fails to load,
   *   `model-invalid` when the graph cannot be opened).
   */
  async load(): Promise<void> {
    if (this.#shared && !this.#shared.released) return;
    this.#shared = undefined;
    this.#loading ??= this.#acquire().finally(() => {
      this.#loading = undefined;
    });
    this.#shared = await this.#loading;
  }

  async #acquire(fp32 = false): Promise<SharedSession> {
    const graph = join(this.modelDir, MODEL_GRAPH);
    const key = `${graph}\0${fp32 ? 'fp32' : 'shipped'}\0${this.threads}\0${this.spinning ? 'spin' : 'park'}`;
    let entry = sessions.get(key);
    if (!entry) {
      entry = (async () => {
        const ort = await loadOrt();
        try {
          // The shipped graph from its file path, so the runtime finds model_q4.onnx_data beside it;
          // the fp32 graph from memory (self-contained).
          const options: Ort.InferenceSession.SessionOptions = {
            executionProviders: ['cpu'],
            intraOpNumThreads: this.threads,
            interOpNumThreads: 1,
            graphOptimizationLevel: 'all',
            extra: { session: { intra_op: { allow_spinning: this.spinning ? '1' : '0' } } },
          };
          const session = fp32
            ? await ort.InferenceSession.create(
                deriveFp32Graph(readFileSync(graph), readFileSync(join(this.modelDir, MODEL_DATA))),
                options,
              )
            : await ort.InferenceSession.create(graph, options);
          sessionsCreated++;
          return { session, ort, queue: Promise.resolve(), refs: 0, released: false };
        } catch (cause) {
          throw embedderUnavailable('model-invalid', `cannot open ONNX model ${graph}: ${(cause as Error).message}`, {
            modelDir: this.modelDir,
            cause,
            hint: 'reinstall the model with: gitmem setup --force (in a clone: npm run setup -- --force)',
          });
        }
      })();
      sessions.set(key, entry);
      entry.catch(() => sessions.delete(key));
    }
    const shared = await entry;
    shared.refs++;
    return shared;
  }

  /**
   * Embed texts (in order) into unit vectors of {@link OnnxEmbedder.dims} floats. Texts longer than
   * `maxLength` word-pieces are truncated. Runs are queued per session, never overlapping.
   * @throws MemoryError `embedder.unavailable` when the runtime or model fails.
   */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    await this.load();
    const shipped = this.#shared!;
    let bulk: SharedSession | undefined;
    if (this.#bulkGraph && this.#embeddedTexts >= BULK_AFTER_TEXTS) {
      this.#bulk ??= this.#acquire(true);
      bulk = await this.#bulk;
      if (bulk.released) {
        this.#bulk = this.#acquire(true);
        bulk = await this.#bulk;
      }
    }
    this.#embeddedTexts += texts.length;
    const encoded = texts.map(
      (t) => this.#tokenizer.encode(typeof t === 'string' ? t : String(t), this.#maxLength).ids,
    );
    const out = new Array<Float32Array>(texts.length);
    // Group similar lengths so a batch pads little; batch 1 keeps input order.
    const order = encoded.map((_, i) => i);
    if (this.#batchSize > 1) order.sort((a, b) => encoded[a]!.length - encoded[b]!.length || a - b);
    // An empty text ([CLS][SEP] only) stays on the shipped graph: it is the one input whose fp32
    // vector drifts past cosine 0.999 (0.9987), every real text stays above 0.9997.
    const tiny = bulk ? order.filter((j) => encoded[j]!.length <= 2) : [];
    const rest = tiny.length ? order.filter((j) => encoded[j]!.length > 2) : order;
    for (const [shared, list] of [
      [shipped, tiny],
      [bulk ?? shipped, rest],
    ] as const) {
      for (let i = 0; i < list.length; i += this.#batchSize) {
        const idx = list.slice(i, i + this.#batchSize);
        const vectors = await this.#enqueue(
          shared,
          idx.map((j) => encoded[j]!),
        );
        idx.forEach((j, k) => {
          out[j] = vectors[k]!;
        });
      }
    }
    return out;
  }

  #enqueue(shared: SharedSession, batch: readonly number[][]): Promise<Float32Array[]> {
    const run = shared.queue.then(() => this.#run(shared, batch));
    shared.queue = run.catch(() => undefined);
    return run;
  }

  async #run(shared: SharedSession, batch: readonly number[][]): Promise<Float32Array[]> {
    const { ort, session } = shared;
    const n = batch.length;
    const seq = Math.max(...batch.map((b) => b.length));
    const { ids, mask } = int64Inputs(batch, seq);
    const feeds: Record<string, Ort.Tensor> = {
      input_ids: new ort.Tensor('int64', ids, [n, seq]),
      attention_mask: new ort.Tensor('int64', mask, [n, seq]),
    };
    if (session.inputNames.includes('token_type_ids'))
      feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(n * seq), [n, seq]);
    let result: Ort.InferenceSession.ReturnType;
    try {
      result = await session.run(feeds);
    } catch (cause) {
      throw embedderUnavailable('runtime-failed', `ONNX inference failed: ${(cause as Error).message}`, {
        modelDir: this.modelDir,
        cause,
      });
    }
    const hidden = result.last_hidden_state ?? result[session.outputNames[0]!];
    const dims = hidden?.dims;
    if (!hidden || !dims || dims.length !== 3 || dims[2] !== this.dims || !(hidden.data instanceof Float32Array)) {
      throw embedderUnavailable(
        'model-invalid',
        `unexpected model output ${JSON.stringify(dims)}; expected [batch, seq, ${this.dims}]`,
        {
          modelDir: this.modelDir,
        },
      );
    }
    return meanPoolNormalize(
      hidden.data,
      batch.map((b) => b.length),
      seq,
      this.dims,
    );
  }

  /**
   * Drop this embedder's hold on the shared session. The session itself stays cached for the
   * process (see {@link releaseOnnxSessions}); a later `embed` on this embedder re-acquires it.
   */
  async dispose(): Promise<void> {
    const shared = this.#shared ?? (this.#loading ? await this.#loading.catch(() => undefined) : undefined);
    this.#shared = undefined;
    if (shared) shared.refs--;
    const bulk = this.#bulk ? await this.#bulk.catch(() => undefined) : undefined;
    this.#bulk = undefined;
    if (bulk) bulk.refs--;
  }
}

/**
 * Open a model folder: check the files, read the vocabulary, hash graph + weights (or take their
 * hashes from `hashStore` while the files' stat is unchanged) for the
 * fingerprint (~50–130 ms for the shipped model); a folder named `all-MiniLM-L6-v2-q4` must match
 * the SHA-256 list in model-sha256.json. Does NOT load onnxruntime: that happens on the
 * first `embed`, so a process that never embeds never pays for the native runtime.
 * @throws MemoryError `embedder.unavailable` with `data.reason` `model-missing` (folder or a file
 *   absent) or `model-invalid` (unreadable vocabulary, or the shipped model's hashes do not match).
 */
export async function createOnnxEmbedder(options: OnnxEmbedderOptions): Promise<OnnxEmbedder> {
  const modelDir = resolve(options.modelDir);
  const missing = [MODEL_GRAPH, MODEL_DATA, VOCAB].filter((f) => !existsSync(join(modelDir, f)));
  if (missing.length) {
    throw embedderUnavailable(
      'model-missing',
      existsSync(modelDir) ? `model folder ${modelDir} lacks ${missing.join(', ')}` : `no model folder at ${modelDir}`,
      { modelDir },
    );
  }
  try {
    const vocabBytes = readFileSync(join(modelDir, VOCAB));
    const tokenizer = WordPieceTokenizer.fromVocabText(vocabBytes.toString('utf8'));
    const [graphHash, dataHash] =
      options.fileHashes ??
      ((await modelFileHashes(
        [join(modelDir, MODEL_GRAPH), join(modelDir, MODEL_DATA)],
        hashFile,
        options.hashStore,
        (p) => statSync(p, { bigint: true, throwIfNoEntry: false }),
      )) as [string, string]);
    const vocabHash = createHash('sha256').update(vocabBytes).digest('hex');
    // A folder named after the shipped model must BE the shipped model (a damaged download or a
    // truncated extension install would otherwise give wrong vectors quietly).
    const shipped = basename(modelDir) === SHIPPED_MODEL.id;
    if (shipped) {
      const got: Record<string, string> = { [MODEL_GRAPH]: graphHash, [MODEL_DATA]: dataHash, [VOCAB]: vocabHash };
      const bad = Object.keys(got).filter((f) => got[f] !== (SHIPPED_MODEL.files as Record<string, string>)[f]);
      if (bad.length) {
        throw embedderUnavailable(
          'model-invalid',
          `model folder ${modelDir}: SHA-256 of ${bad.join(', ')} does not match the shipped ${SHIPPED_MODEL.id} model`,
          {
            modelDir,
            hint: 'reinstall the model with: npm run setup -- --force (or reinstall the extension)',
          },
        );
      }
    }
    return new OnnxEmbedder({
      modelDir,
      modelId: options.modelId ?? DEFAULT_MODEL_ID,
      dims: options.dims ?? MINILM_DIMS,
      threads: Math.max(1, Math.floor(options.intraOpNumThreads ?? 2)),
      spinning: options.allowSpinning === true,
      batchSize: Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE)),
      maxLength: Math.max(2, Math.floor(options.maxLength ?? DEFAULT_MAX_LENGTH)),
      tokenizer,
      fileHashes: [graphHash, dataHash],
      vocabHash,
      verified: shipped,
      bulkGraph: options.bulkGraph === true,
    });
  } catch (cause) {
    if (isMemoryError(cause)) throw cause;
    throw embedderUnavailable('model-invalid', `cannot read model folder ${modelDir}: ${(cause as Error).message}`, {
      modelDir,
      cause,
    });
  }
}
