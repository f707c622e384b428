// The fp32 bulk graph derived from the shipped 4-bit graph (indexes/embed/fp32-graph.ts) gives the same
// vectors: cosine ≥ 0.999 per text against the shipped graph, on real text from fixtures/corpora,
// with the real model. The bulk embedder switches to it after BULK_AFTER_TEXTS texts and keeps the
// fingerprint. Never skips: no model → fails.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { deriveFp32Graph } from '../../../src/indexes/embed/fp32-graph.js';
import { BULK_AFTER_TEXTS, createOnnxEmbedder, onnxSessionStats } from '../../../src/indexes/embed/onnx-embedder.js';
import { modelDir } from '../../support/model.js';

/** Paragraph-sized texts (~600 characters) from every fixture corpus, every `step`-th one. */
function corpusTexts(step: number): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) {
        let cur = '';
        for (const para of readFileSync(p, 'utf8').split(/\n\s*\n/)) {
          cur += `${para}\n\n`;
          if (cur.length > 600) {
            out.push(cur);
            cur = '';
          }
        }
        if (cur.trim()) out.push(cur);
      }
    }
  };
  walk(join(process.cwd(), 'fixtures', 'corpora'));
  return out.filter((_, i) => i % step === 0).slice(0, 40);
}

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, v, i) => s + v * b[i]!, 0);

describe('fp32 bulk graph (real model)', () => {
  it('embeds every corpus text within cosine 0.999 of the shipped graph, with the same fingerprint', async () => {
    const dir = modelDir();
    const texts = [
      '',
      'webhook retries',
      '日本語のメモ: データベースの移行',
      ...corpusTexts(17),
      'x '.repeat(400), // truncated at 256 word-pieces
    ];
    expect(texts.length).toBeGreaterThan(30);
    const shipped = await createOnnxEmbedder({ modelDir: dir, intraOpNumThreads: 1 });
    const bulk = await createOnnxEmbedder({ modelDir: dir, intraOpNumThreads: 1, bulkGraph: true });
    expect(bulk.fingerprint).toBe(shipped.fingerprint);
    const created = onnxSessionStats().created;
    // The first BULK_AFTER_TEXTS texts run on the shipped graph; then the fp32 graph loads.
    await bulk.embed(Array.from({ length: BULK_AFTER_TEXTS }, (_, i) => `warm ${i}`));
    const ref = await shipped.embed(texts);
    const got = await bulk.embed(texts);
    expect(onnxSessionStats().created).toBeGreaterThan(created);
    const cosines = texts.map((_, i) => cos(ref[i]!, got[i]!));
    const below = texts.filter((_, i) => cosines[i]! < 0.999).map((t) => JSON.stringify(t.slice(0, 40)));
    console.log(
      `fp32 vs shipped: min cosine ${Math.min(...cosines).toFixed(5)} over ${texts.length} texts`,
      cosines.map((c) => c.toFixed(4)).join(' '),
    );
    expect(below).toEqual([]);
    const min = Math.min(...cosines);
    // The empty text runs on the shipped graph (its fp32 vector drifts to 0.9987).
    expect(cosines[0]).toBeGreaterThan(0.99999);
    // Not the same session in disguise: fp32 activations differ a little from the int8 kernel's.
    expect(min).toBeLessThan(1 - 1e-7);
    await shipped.dispose();
    await bulk.dispose();
  }, 300_000);

  it('refuses a graph it cannot rewrite with embedder.unavailable (model-invalid)', () => {
    const graph = readFileSync(join(modelDir(), 'onnx', 'model_q4.onnx'));
    // The data file cut short: the tensors point outside it.
    let error: unknown;
    try {
      deriveFp32Graph(graph, new Uint8Array(16));
    } catch (e) {
      error = e;
    }
    expect(isMemoryError(error, 'embedder.unavailable')).toBe(true);
    expect((error as { data?: { reason?: string } }).data?.reason).toBe('model-invalid');
    expect(() => deriveFp32Graph(new Uint8Array([8, 1]), new Uint8Array())).toThrow(/no graph/);
  });
});
