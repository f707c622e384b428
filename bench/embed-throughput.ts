// Bulk embedding throughput, before → after in the same run: `gitmem index` over a generated
// workspace (bench/perf.ts generator), once with the settings gitmem used before (one text per
// session.run, spinning intra-op threads) and once with length-sorted batches of 16 and threads
// parked when idle, alternating so both see the same machine load (the fp32 bulk graph, which
// `gitmem index` loads after 512 texts, is not reached at this size: see the README). Prints chunks/s
// (wall) and chunks per CPU-second (all threads of this process; steadier on a shared machine).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOnnxEmbedder, type OnnxEmbedderOptions } from '../src/indexes/onnx-embedder.js';
import { createIndexStorage } from '../src/platform/index-storage.js';
import { createNodeFs } from '../src/platform/node-fs.js';
import { createMemory } from '../src/service/memory.js';

export interface ThroughputRow {
  readonly setting: string;
  readonly chunks: number;
  readonly chunksPerSecond: number;
  readonly chunksPerCpuSecond: number;
}

/** The settings compared: `before` reproduces the old defaults, `after` is what gitmem uses now. */
export const THROUGHPUT_SETTINGS: Readonly<Record<'before' | 'after', Partial<OnnxEmbedderOptions>>> = {
  before: { batchSize: 1, allowSpinning: true },
  after: {},
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
      for (const [name, settings] of Object.entries(THROUGHPUT_SETTINGS)) {
        const embedder = await createOnnxEmbedder({ modelDir, ...settings });
        await embedder.embed(['warm up the session']);
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
        ? 'before: batch 1, spinning threads'
        : r.setting === 'after'
          ? 'sorted batches of 16, parked'
          : 'same + fp32 bulk graph';
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
