// The real all-MiniLM-L6-v2 4-bit model through OnnxEmbedder: shape, norms, similarity sanity,
// batch/alone equality (B27), truncation, session reuse (B26), typed unavailability, and our
// WordPiece ids against @huggingface/tokenizers on real corpora. Never skips: no model → fails.
import { readdirSync, readFileSync, statSync, mkdtempSync, mkdirSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { NullEmbedder } from '../../../src/indexes/embed/embedder.js';
import { int64Inputs } from '../../../src/indexes/embed/embed-tensors.js';
import {
  createOnnxEmbedder,
  DEFAULT_BATCH_SIZE,
  onnxSessionStats,
  type OnnxEmbedder,
} from '../../../src/indexes/embed/onnx-embedder.js';
import { modelDir } from '../../support/model.js';

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i]!, 0);
const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

async function unavailableReason(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (e) {
    expect(isMemoryError(e, 'embedder.unavailable'), String(e)).toBe(true);
    return (e as { data?: { reason?: string } }).data?.reason;
  }
  throw new Error('expected embedder.unavailable, got success');
}

let dir: string;
let emb: OnnxEmbedder;

beforeAll(async () => {
  dir = modelDir();
  emb = await createOnnxEmbedder({ modelDir: dir });
});
afterAll(async () => {
  await emb?.dispose();
});

describe('OnnxEmbedder (real model)', () => {
  it('gives 384-dim unit vectors, one per text, in order; empty and odd text included', async () => {
    const texts = ['the database connection pool is exhausted', '', '   ', '😀 中文 [SEP] \u0000', 'x'];
    const vs = await emb.embed(texts);
    expect(emb.dims).toBe(384);
    expect(vs).toHaveLength(texts.length);
    for (const v of vs) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(384);
      expect(Math.sqrt(cos(v, v))).toBeCloseTo(1, 5);
    }
    expect(await emb.embed([])).toEqual([]);
  });

  it('a paraphrase pair is closer than an unrelated pair', async () => {
    const [a, b, c, d] = await emb.embed([
      'the database connection pool is exhausted',
      'we ran out of postgres connections',
      'my cat likes to sleep on the sunny windowsill',
      'the pull request needs a review before merging',
    ]);
    const para = cos(a!, b!);
    expect(para).toBeGreaterThan(cos(a!, c!) + 0.2);
    expect(para).toBeGreaterThan(cos(a!, d!) + 0.2);
    expect(para).toBeGreaterThan(0.4);
  });

  it('a text embeds the same alone, in a batch, concurrently and batched (B27)', async () => {
    const texts = [
      'we ran out of postgres connections',
      'short',
      'lunr cannot update an index in place, so the keyword index is segmented into a base and a delta',
      '中文分词测试',
    ];
    expect(emb.batchSize).toBe(DEFAULT_BATCH_SIZE);
    const alone: Float32Array[] = [];
    for (const t of texts) alone.push((await emb.embed([t]))[0]!);
    const batch = await emb.embed(texts);
    const other = await createOnnxEmbedder({ modelDir: dir });
    const [c1, c2] = await Promise.all([emb.embed(texts), other.embed([...texts].reverse())]);
    const single = await createOnnxEmbedder({ modelDir: dir, batchSize: 1, allowSpinning: true });
    const oneByOne = await single.embed(texts);
    texts.forEach((_, i) => {
      // Batches pad to their longest text; the attention mask hides the padding, so only float
      // rounding differs from embedding the text alone.
      expect(maxAbsDiff(alone[i]!, batch[i]!)).toBeLessThan(1e-5);
      expect(cos(alone[i]!, batch[i]!)).toBeGreaterThan(0.99999);
      expect(maxAbsDiff(batch[i]!, c1![i]!)).toBe(0);
      expect(maxAbsDiff(alone[i]!, oneByOne[i]!)).toBe(0);
    });
    // The same batch in another order is the same set of runs (sorted by length first).
    texts.forEach((_, i) => expect(maxAbsDiff(batch[i]!, c2![texts.length - 1 - i]!)).toBe(0));
    await other.dispose();
    await single.dispose();
  });

  it('int64 inputs: ids and a mask of 1 over each row, 0 padding to the longest row', () => {
    const { ids, mask } = int64Inputs(
      [
        [101, 7592, 102],
        [101, 102],
      ],
      3,
    );
    expect([...ids]).toEqual([101n, 7592n, 102n, 101n, 102n, 0n]);
    expect([...mask]).toEqual([1n, 1n, 1n, 1n, 1n, 0n]);
  });

  it('texts longer than 256 word-pieces do not throw and are truncated (the tail does not matter)', async () => {
    const long = 'the keyword index is rebuilt from markdown files whenever the manifest does not match. '.repeat(40);
    expect(emb.tokenizer.tokenizeToIds(long).length).toBeGreaterThan(256);
    const [a, b] = await emb.embed([long, long + ' completely different tail about cats and weather']);
    expect(a!.length).toBe(384);
    expect(maxAbsDiff(a!, b!)).toBe(0);
    const [huge] = await emb.embed(['word '.repeat(200_000)]);
    expect(Math.sqrt(cos(huge!, huge!))).toBeCloseTo(1, 5);
  });

  it('reuses one session per thread setting for the process; dispose does not recreate it (B26)', async () => {
    await emb.embed(['warm']);
    const before = onnxSessionStats().created;
    for (let i = 0; i < 5; i++) {
      const e = await createOnnxEmbedder({ modelDir: dir });
      await e.embed(['again']);
      await e.dispose();
    }
    expect(onnxSessionStats().created).toBe(before);
    const single = await createOnnxEmbedder({ modelDir: dir, intraOpNumThreads: 1 });
    expect(single.threads).toBe(1);
    const [v1] = await single.embed(['we ran out of postgres connections']);
    const [v2] = await emb.embed(['we ran out of postgres connections']);
    expect(maxAbsDiff(v1!, v2!)).toBeLessThan(1e-4);
    expect(onnxSessionStats().created).toBeLessThanOrEqual(before + 1);
    await single.dispose();
  });

  it('the fingerprint is stable and covers the model id', async () => {
    expect(emb.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(emb.modelId).toBe('all-MiniLM-L6-v2-q4');
    const again = await createOnnxEmbedder({ modelDir: dir });
    expect(again.fingerprint).toBe(emb.fingerprint);
    const renamed = await createOnnxEmbedder({ modelDir: dir, modelId: 'other' });
    expect(renamed.fingerprint).not.toBe(emb.fingerprint);
    expect(emb.vocabHash).toBe('07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3');
  });

  it('file hashes handed over (as the embedding worker gets them) give the same fingerprint and are still checked', async () => {
    const handed = await createOnnxEmbedder({ modelDir: dir, fileHashes: emb.fileHashes });
    expect(handed.fingerprint).toBe(emb.fingerprint);
    expect(handed.verified).toBe(true);
    const err = await createOnnxEmbedder({ modelDir: dir, fileHashes: [emb.fileHashes[0], '0'.repeat(64)] }).catch(
      (e: unknown) => e,
    );
    expect(isMemoryError(err) && err.data?.reason).toBe('model-invalid');
  });
});

describe('embedder unavailable', () => {
  it('a missing model folder → embedder.unavailable (model-missing), before any native load', async () => {
    expect(await unavailableReason(createOnnxEmbedder({ modelDir: join(tmpdir(), 'gitmem-no-such-model') }))).toBe(
      'model-missing',
    );
  });

  it('a folder lacking the weights → model-missing; a garbage graph → model-invalid on first embed', async () => {
    const bad = mkdtempSync(join(tmpdir(), 'gitmem-bad-model-'));
    mkdirSync(join(bad, 'onnx'));
    copyFileSync(join(dir, 'vocab.txt'), join(bad, 'vocab.txt'));
    writeFileSync(join(bad, 'onnx', 'model_q4.onnx'), 'not an onnx graph');
    expect(await unavailableReason(createOnnxEmbedder({ modelDir: bad }))).toBe('model-missing');
    writeFileSync(join(bad, 'onnx', 'model_q4.onnx_data'), new Uint8Array(16));
    const e = await createOnnxEmbedder({ modelDir: bad });
    expect(await unavailableReason(e.embed(['x']))).toBe('model-invalid');
  });

  it('NullEmbedder rejects with its reason and accepts an empty list', async () => {
    const n = new NullEmbedder('model-missing', 'no model');
    expect(await n.embed([])).toEqual([]);
    expect(await unavailableReason(n.embed(['x']))).toBe('model-missing');
  });
});

describe('WordPiece ids match @huggingface/tokenizers (tokenizer.json) on real text', () => {
  it('every line of the fixtures (vendored corpora included), plus hard cases', () => {
    const hf = new Tokenizer(
      JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')),
      JSON.parse(readFileSync(join(dir, 'tokenizer_config.json'), 'utf8')),
    );
    const lines: string[] = [
      'Héllo, World! naïve café — résumé',
      'getUserById(user_id) src/core/paths.ts',
      '中文分词 测试 日本語のテキスト 한국어',
      'İstanbul ΣΟΦΟΣ straße ﬁnance',
      'x\u000by\u000cz\u0085w\u200bq\u00adr',
      '[CLS] hi [SEP] [unk] [MASK]',
      'emoji 😀 test 🚀 👩‍💻',
      '$100 + 5% <a> ^ `code` | ~ done',
      'supercalifragilisticexpialidocious'.repeat(4),
    ];
    const walk = (d: string, depth = 0): void => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) {
          if (depth < 7) walk(p, depth + 1);
        } else if (/\.(md|txt)$/.test(name)) {
          lines.push(
            ...readFileSync(p, 'utf8')
              .split('\n')
              .filter((l) => l.trim())
              .slice(0, 200),
          );
        }
      }
    };
    walk(join(import.meta.dirname, '..', '..', '..', 'fixtures'));
    expect(lines.length).toBeGreaterThan(1000);
    const diffs: string[] = [];
    for (const line of lines) {
      const ours = [emb.tokenizer.clsId, ...emb.tokenizer.tokenizeToIds(line), emb.tokenizer.sepId];
      const ref = hf.encode(line).ids;
      if (JSON.stringify(ours) !== JSON.stringify(ref)) diffs.push(line);
    }
    expect(diffs.slice(0, 5)).toEqual([]);
  });
});
