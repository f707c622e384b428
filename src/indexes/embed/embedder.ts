// The Embedder port (text → L2-normalised vectors), the null embedder used when no model is
// available, and the embedding fingerprint. Pure: imports only core; never onnxruntime-node.
import { MemoryError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';

/**
 * Turns texts into unit-length vectors. Implementations: {@link NullEmbedder} (no model) and
 * `OnnxEmbedder` (indexes/embed/onnx-embedder.ts). Tests use a fake.
 */
export interface Embedder {
  /** Stable model identifier, e.g. `all-MiniLM-L6-v2-q4`. */
  readonly modelId: string;
  /** Vector length (384 for all-MiniLM-L6-v2). */
  readonly dims: number;
  /**
   * Hex SHA-256 identifying everything that changes a vector except the chunker (model id, weights
   * hash, dims, tokenizer vocabulary). Vectors with another fingerprint must not be mixed.
   * Empty for {@link NullEmbedder}.
   */
  readonly fingerprint: string;
  /**
   * Embed `texts` in order. Each result has `dims` floats and L2 norm 1 (an empty text gives the
   * vector of `[CLS] [SEP]`, still unit length). Never throws on user text.
   * @throws MemoryError `embedder.unavailable` when the model cannot be loaded or run.
   */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Release native resources; later `embed` calls reload (or throw for the null embedder). */
  dispose(): Promise<void>;
  /**
   * Load the runtime and model now instead of on the first `embed` (optional), so a host can report
   * the state it really has. @throws MemoryError `embedder.unavailable` as `embed` would.
   */
  load?(): Promise<void>;
}

/** Why semantic recall is off; carried in `degraded` results and shown by `gitmem doctor`. */
export type EmbedderUnavailableReason =
  /** No model folder, or a required file in it is missing. */
  | 'model-missing'
  /** The model folder's files are present but unreadable or malformed (vocabulary, graph). */
  | 'model-invalid'
  /** onnxruntime-node could not be imported or its native binding failed to load. */
  | 'runtime-missing'
  /** The session was created but running it failed. */
  | 'runtime-failed'
  /** Embeddings switched off by configuration. */
  | 'disabled';

/** `data` of a MemoryError `embedder.unavailable`. */
export interface EmbedderUnavailableData {
  readonly reason: EmbedderUnavailableReason;
  /** The model folder looked at, when there is one. */
  readonly modelDir?: string;
}

/**
 * Build the `embedder.unavailable` error with its reason in `data.reason`.
 * @returns a MemoryError (the caller throws it).
 */
export function embedderUnavailable(
  reason: EmbedderUnavailableReason,
  message: string,
  options: { modelDir?: string; cause?: unknown; hint?: string } = {},
): MemoryError {
  const data: EmbedderUnavailableData = {
    reason,
    ...(options.modelDir === undefined ? {} : { modelDir: options.modelDir }),
  };
  const hint =
    options.hint ??
    (reason === 'model-missing' ? 'install the model with: gitmem setup (in a clone: npm run setup)' : undefined);
  return new MemoryError('embedder.unavailable', message, {
    data: { ...data },
    ...(options.cause === undefined ? {} : { cause: options.cause }),
    ...(hint === undefined ? {} : { hint }),
  });
}

/**
 * The embedder of a process with no usable model: `embed` always rejects with
 * `embedder.unavailable` and the reason given, so recall falls back to keyword results.
 */
export class NullEmbedder implements Embedder {
  readonly modelId = 'none';
  readonly dims = 0;
  readonly fingerprint = '';
  /** Why there is no model. */
  readonly reason: EmbedderUnavailableReason;
  readonly #message: string;

  constructor(reason: EmbedderUnavailableReason = 'disabled', message = 'semantic recall is not available') {
    this.reason = reason;
    this.#message = message;
  }

  /** @throws MemoryError `embedder.unavailable` (always, except for an empty list which gives []). */
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    throw embedderUnavailable(this.reason, this.#message);
  }

  async dispose(): Promise<void> {}
}

/**
 * The embedder fingerprint: SHA-256 hex over model id, weights hash, dims and vocabulary hash.
 * The service adds its chunker version (and anything else that changes chunk text) on top.
 */
export function embedFingerprint(parts: {
  readonly modelId: string;
  /** Hex SHA-256 of the weights file(s). */
  readonly weightsHash: string;
  readonly dims: number;
  /** Hex SHA-256 of the tokenizer vocabulary. */
  readonly vocabHash: string;
}): string {
  return sha256(JSON.stringify(['gitmem-embed-1', parts.modelId, parts.weightsHash, parts.dims, parts.vocabHash]));
}
