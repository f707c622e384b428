// The model state reported is the running process's: vectors left on disk by an earlier run, with
// the runtime unable to load now, give `unavailable` on index, `failed` in doctor and a degraded
// recall — never "ready … loaded". The shipped model folder is checked by SHA-256 when opened.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/core/errors.js';
import { embedderUnavailable, type Embedder } from '../../../src/indexes/embed/embedder.js';
import { createOnnxEmbedder } from '../../../src/indexes/embed/onnx-embedder.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { doctor } from '../../../src/service/doctor/doctor.js';
import { createMemory } from '../../../src/service/memory.js';
import { tempDir } from '../../support/fixtures.js';
import { modelDir } from '../../support/model.js';
import { workspace } from '../../support/watch.js';
import { recall } from '../../../src/service/recall/recall.js';

describe('honest model state', () => {
  it('earlier vectors on disk + a runtime that cannot load now → unavailable, doctor failed, recall degraded', async () => {
    const root = workspace(
      { 'memory/MEMORY.md': '# Memory\n\nThe deploy pipeline retries webhooks three times.\n' },
      { model: { enabled: true } },
    );
    const index = join(tempDir('gitmem-state-'), 'index');
    const open = (createEmbedder?: () => Promise<Embedder>) =>
      createMemory({
        fs: createNodeFs(root),
        openStorage: () => createIndexStorage(index),
        freshness: 'manual',
        lexicalWorker: false,
        defaultModelDir: modelDir(),
        ...(createEmbedder ? { createEmbedder } : {}),
      });
    try {
      const first = await open();
      const built = await first.index();
      expect(built.vectors).toMatchObject({ unavailable: null, embedded: 1 });
      const ok = await doctor(first.context);
      expect(ok.model.state).toBe('ready');
      expect(ok.model.detail).toMatch(/loaded in this process .*SHA-256 verified/);
      await first.dispose();

      // Same model files (same fingerprint, so the persisted vectors load), but the native runtime fails.
      const real = await createOnnxEmbedder({ modelDir: modelDir() });
      const broken = () =>
        Promise.reject(
          embedderUnavailable(
            'runtime-missing',
            'onnxruntime-node could not be loaded: libonnxruntime.so.1: cannot open shared object file',
          ),
        );
      const noRuntime: Embedder = {
        modelId: real.modelId,
        dims: real.dims,
        fingerprint: real.fingerprint,
        embed: broken,
        load: broken,
        dispose: async () => undefined,
      };
      const second = await open(async () => noRuntime);
      const rep = await second.index();
      expect(rep.vectors.embedded).toBe(0);
      expect(rep.vectors.unavailable).toMatch(/onnxruntime-node could not be loaded/);
      const doc = await doctor(second.context);
      expect(doc.model.state).toBe('failed');
      expect(doc.model.detail).not.toMatch(/loaded in this process/);
      const res = await recall(second.context, 'webhook retries');
      expect(res.degraded).toMatch(/onnxruntime-node could not be loaded/);
      expect(res.results[0]?.path).toBe('memory/MEMORY.md'); // keyword recall still answers
      await second.dispose();
    } finally {
      rmSync(join(root, '..'), { recursive: true, force: true });
      rmSync(join(index, '..'), { recursive: true, force: true });
    }
  }, 60_000);

  it('a folder named after the shipped model with a damaged weights file is refused (model-invalid, SHA-256)', async () => {
    const dir = join(tempDir('gitmem-badmodel-'), 'all-MiniLM-L6-v2-q4');
    try {
      cpSync(modelDir(), dir, { recursive: true });
      writeFileSync(join(dir, 'onnx', 'model_q4.onnx_data'), 'truncated');
      const err = await createOnnxEmbedder({ modelDir: dir }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isMemoryError(err, 'embedder.unavailable')).toBe(true);
      expect((err as { data?: { reason?: string } }).data?.reason).toBe('model-invalid');
      expect((err as Error).message).toMatch(/SHA-256 of onnx\/model_q4\.onnx_data does not match/);
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true });
    }
  });
});
