// The embedding session in a worker thread (platform/worker-embedder.ts + dist/embed-worker.js, built
// by `npm run build`) with the real model: same vectors as on the main thread, the main thread keeps
// running while a batch embeds (onnxruntime's session.run blocks the thread that calls it), typed
// errors, fallback to the main thread when the script is missing, and dispose/restart.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { createOnnxEmbedder, DEFAULT_BATCH_SIZE, type OnnxEmbedder } from '../../../src/indexes/embed/onnx-embedder.js';
import {
  createWorkerEmbedder,
  createWorkerPoolEmbedder,
  workerEmbedderFactory,
  WorkerPoolEmbedder,
  type WorkerEmbedder,
} from '../../../src/platform/worker-embedder.js';
import { REPO, tempDir } from '../../support/fixtures.js';
import { modelDir } from '../../support/model.js';

const SCRIPT = join(REPO, 'dist', 'embed-worker.js');
const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);
const texts = [
  'the database connection pool is exhausted',
  '',
  'lunr cannot update an index in place, so the keyword index is segmented into a base and a delta',
  '中文分词测试 😀',
];
/** Long enough that one call spans several session runs. */
const bulk = Array.from(
  { length: 48 },
  (_, i) => `note ${i}: ${'webhook retries back off exponentially after a timeout '.repeat(8)}`,
);

let inline: OnnxEmbedder;
let worker: WorkerEmbedder;

beforeAll(async () => {
  expect(existsSync(SCRIPT), `${SCRIPT} is missing: run npm run build`).toBe(true);
  inline = await createOnnxEmbedder({ modelDir: modelDir() });
  worker = await createWorkerEmbedder({ modelDir: modelDir(), script: SCRIPT });
});
afterAll(async () => {
  await worker?.dispose();
  await inline?.dispose();
});

/** How many 0 ms timer hops the main thread runs, one after another, until `p` settles. */
async function hopsDuring(p: Promise<unknown>): Promise<number> {
  let settled = false;
  let hops = 0;
  const done = p.then(() => (settled = true));
  while (!settled) {
    await new Promise<void>((r) => setTimeout(r, 0));
    hops++;
  }
  await done;
  return hops;
}

describe('WorkerEmbedder (real model, dist/embed-worker.js)', () => {
  it('gives the vectors the main-thread embedder gives, with the same fingerprint', async () => {
    expect(worker.fingerprint).toBe(inline.fingerprint);
    expect(worker.dims).toBe(384);
    const [a, b] = [await worker.embed(texts), await inline.embed(texts)];
    expect(worker.mode).toBe('worker');
    expect(a).toHaveLength(texts.length);
    a.forEach((v, i) => expect(maxAbsDiff(v, b[i]!)).toBe(0));
    expect(await worker.embed([])).toEqual([]);
  });

  it('leaves the main thread free while it embeds; on the main thread each session run blocks it', async () => {
    await worker.embed(['warm']);
    await inline.embed(['warm']);
    // 48 long texts are 48 / DEFAULT_BATCH_SIZE session runs: inline, timers get a turn only between runs.
    const onWorker = await hopsDuring(worker.embed(bulk));
    const onMain = await hopsDuring(inline.embed(bulk));
    expect(onMain).toBeLessThanOrEqual(48 / DEFAULT_BATCH_SIZE + 1);
    expect(onWorker).toBeGreaterThan(20);
  });

  it('jobs sent together come back in order, each with its own vectors', async () => {
    const [x, y] = await Promise.all([worker.embed([texts[0]!]), worker.embed([texts[2]!])]);
    const [ix, iy] = await inline.embed([texts[0]!, texts[2]!]);
    expect(maxAbsDiff(x![0]!, ix!)).toBe(0);
    expect(maxAbsDiff(y![0]!, iy!)).toBe(0);
  });

  it('a missing model folder is embedder.unavailable (model-missing) before any worker starts', async () => {
    const err = await createWorkerEmbedder({
      modelDir: join(tempDir('gitmem-noworker-'), 'none'),
      script: SCRIPT,
    }).catch((e: unknown) => e);
    expect(isMemoryError(err, 'embedder.unavailable')).toBe(true);
    expect((err as { data?: { reason?: string } }).data?.reason).toBe('model-missing');
  });

  it('a missing worker script falls back to the main thread with the same vectors', async () => {
    const warned: string[] = [];
    const logger = {
      debug: () => undefined,
      info: () => undefined,
      warn: (m: string) => warned.push(m),
      error: (m: string) => warned.push(m),
    };
    const fallback = await createWorkerEmbedder({
      modelDir: modelDir(),
      script: join(tempDir('gitmem-noworker-'), 'embed-worker.js'),
      logger,
    });
    try {
      const v = await fallback.embed(texts);
      expect(v[0]!.length).toBe(384);
      const again = await fallback.embed(texts);
      const ref = await inline.embed(texts);
      again.forEach((x, i) => expect(maxAbsDiff(x, ref[i]!)).toBe(0));
      expect(fallback.mode).toBe('inline');
    } finally {
      await fallback.dispose();
    }
  });

  it('dispose stops the worker; the next embed starts a new one', async () => {
    const w = await createWorkerEmbedder({ modelDir: modelDir(), script: SCRIPT });
    const [before] = await w.embed([texts[0]!]);
    await w.dispose();
    const [after] = await w.embed([texts[0]!]);
    expect(maxAbsDiff(before!, after!)).toBe(0);
    expect(w.mode).toBe('worker');
    await w.dispose();
  });

  it('a pool of two single-thread workers (gitmem index) gives the same vectors, in order', async () => {
    const made = await workerEmbedderFactory({ bulk: true, script: SCRIPT })(modelDir(), 2);
    expect(made).toBeInstanceOf(WorkerPoolEmbedder);
    await made.dispose();
    const pool = await createWorkerPoolEmbedder({ modelDir: modelDir(), workers: 2, script: SCRIPT });
    try {
      expect(pool.size).toBe(2);
      expect(pool.fingerprint).toBe(inline.fingerprint);
      const all = [...texts, ...bulk.slice(0, 12)];
      const [got, ref] = [await pool.embed(all), await inline.embed(all)];
      expect(got).toHaveLength(all.length);
      // One intra-op thread instead of two may sum in another order: equal to float rounding.
      got.forEach((v, i) => expect(maxAbsDiff(v, ref[i]!)).toBeLessThan(1e-4));
      // Fewer texts than two shares: one worker runs them.
      const [one] = await pool.embed([texts[0]!]);
      expect(maxAbsDiff(one!, ref[0]!)).toBeLessThan(1e-4);
      expect(await pool.embed([])).toEqual([]);
    } finally {
      await pool.dispose();
    }
  });
});
