// B25: when onnxruntime-node cannot load (musl, missing binary), the embedder reports a typed
// `embedder.unavailable` / `runtime-missing` instead of crashing or leaving an unhandled rejection.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { createOnnxEmbedder } from '../../../src/indexes/embed/onnx-embedder.js';

vi.mock('onnxruntime-node', () => {
  throw new Error('Error loading shared library ld-linux-x86-64.so.2: No such file or directory (ERR_DLOPEN_FAILED)');
});

describe('onnxruntime-node fails to load', () => {
  it('embed rejects with embedder.unavailable (runtime-missing), every time, without crashing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitmem-fake-model-'));
    mkdirSync(join(dir, 'onnx'));
    writeFileSync(join(dir, 'onnx', 'model_q4.onnx'), 'graph');
    writeFileSync(join(dir, 'onnx', 'model_q4.onnx_data'), 'weights');
    writeFileSync(join(dir, 'vocab.txt'), '[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nhello\n');
    const e = await createOnnxEmbedder({ modelDir: dir });
    expect(e.fingerprint).toMatch(/^[0-9a-f]{64}$/); // creating never touches the runtime
    for (let i = 0; i < 2; i++) {
      const err = await e.embed(['hello']).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(isMemoryError(err, 'embedder.unavailable')).toBe(true);
      expect((err as { data?: { reason?: string } }).data?.reason).toBe('runtime-missing');
    }
    expect(await e.embed([])).toEqual([]);
  });
});
