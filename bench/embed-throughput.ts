// Bulk embedding throughput, before → after in the same run: `gitmem index` over real chunks (a
// corpus from fixtures/corpora), once with the settings gitmem used first (one text per session.run,
// two spinning intra-op threads), once with the previous default (length-sorted batches of 16, one
// session of two parked threads) and once with the embedder `gitmem index` uses now (two worker
// threads with one single-thread session each, batches of DEFAULT_BATCH_SIZE), alternating so all
// see the same machine load (the fp32 bulk graph, which each worker loads after 512 texts, is not
// reached at this size: see the README). Prints chunks/s (wall) and chunks per CPU-second (all
// threads of this process, workers included; steadier on a shared machine).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Embedder } from '../src/indexes/embed/embedder.js';
import { createOnnxEmbedder, DEFAULT_BATCH_SIZE } from '../src/indexes/embed/onnx-embedder.js';
import { createIndexStorage } from '../src/platform/index-storage.js';
import { createNodeFs } from '../src/platform/node-fs.js';
import { workerEmbedderFactory } from '../src/platform/worker-embedder.js';
import { createMemory } from '../src/service/memory.js';

export interface ThroughputRow {
  readonly setting: string;
  readonly chunks: number;
  readonly chunksPerSecond: number;
  readonly chunksPerCpuSecond: number;
}

/** The embedders compared: `before` reproduces the first defaults, `previous` the last, `after` is what `gitmem index` uses now. */
export const THROUGHPUT_SETTINGS: Readonly<Record<string, (modelDir: string) => Promise<Embedder>>> = {
  before: (modelDir) => createOnnxEmbedder({ modelDir, batchSize: 1, allowSpinning: true }),
  previous: (modelDir) => createOnnxEmbedder({ modelDir, batchSize: 16 }),
  after: (modelDir) => workerEmbedderFactory({ bulk: true })(modelDir, 2),
};

/** Goal for the new settings: twice the old bulk rate. */
export const THROUGHPUT_GOAL = 2;

/**
 * Index `root` (a workspace with no index yet) into fresh index folders, alternating before/after
 * `rounds` times. @returns one averaged row per setting, or undefined when the model is missing.
 */
export async function measureEmbedThroughput(
  root: string,
  modelDir: string,
  rounds = 1,
): Promise<ThroughputRow[] | undefined> {
  if (!existsSync(modelDir)) return undefined;
  const tmp = mkdtempSync(join(tmpdir(), 'gitmem-embed-tp-'));
  const totals = new Map<string, { chunks: number; wall: number; cpu: number }>();
  try {
    let n = 0;
    for (let round = 0; round < rounds; round++) {
      for (const [name, make] of Object.entries(THROUGHPUT_SETTINGS)) {
        const embedder = await make(modelDir);
        await embedder.embed(Array.from({ length: 8 }, (_, i) => `warm up session ${i}`));
        const mem = await createMemory({
          fs: createNodeFs(root),
          openStorage: () => createIndexStorage(join(tmp, `index-${n++}`)),
          freshness: 'manual',
          createEmbedder: async () => embedder,
        });
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const rep = await mem.index();
        const wall = (performance.now() - t0) / 1000;
        const cpu = process.cpuUsage(cpu0);
        await mem.dispose();
        await embedder.dispose();
        const t = totals.get(name) ?? { chunks: 0, wall: 0, cpu: 0 };
        totals.set(name, {
          chunks: t.chunks + rep.vectors.embedded,
          wall: t.wall + wall,
          cpu: t.cpu + (cpu.user + cpu.system) / 1e6,
        });
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return [...totals].map(([setting, t]) => ({
    setting,
    chunks: t.chunks,
    chunksPerSecond: t.chunks / t.wall,
    chunksPerCpuSecond: t.chunks / t.cpu,
  }));
}

/** Table lines: setting, chunks/s, chunks per CPU-s, goal and whether it is met. */
export function formatThroughput(rows: readonly ThroughputRow[]): string[] {
  const before = rows.find((r) => r.setting === 'before');
  const out = [
    `${'bulk embedding (gitmem index)'.padEnd(44)} ${'chunks/s'.padStart(9)} ${'per CPU-s'.padStart(10)}  goal`,
  ];
  for (const r of rows) {
    const label =
      r.setting === 'before'
        ? 'before: batch 1, 2 spinning threads'
        : r.setting === 'previous'
          ? 'previous: sorted batches of 16, 2 threads'
          : `now: 2 workers × 1 thread, batches of ${DEFAULT_BATCH_SIZE}`;
    let goal = '—';
    if (before && r !== before) {
      const ratio = r.chunksPerSecond / before.chunksPerSecond;
      const cpuRatio = r.chunksPerCpuSecond / before.chunksPerCpuSecond;
      goal = `≥ ${THROUGHPUT_GOAL}× before: ${ratio.toFixed(2)}× wall, ${cpuRatio.toFixed(2)}× per CPU-s (${ratio >= THROUGHPUT_GOAL ? 'met' : 'not met'})`;
    }
    out.push(
      `${`${label} (${r.chunks})`.padEnd(44)} ${r.chunksPerSecond.toFixed(1).padStart(9)} ${r.chunksPerCpuSecond.toFixed(1).padStart(10)}  ${goal}`,
    );
  }
  return out;
}
