// Performance benchmark (DESIGN §9): a deterministic workspace of 10,000 memory files (~50,000
// chunks); full build, cold start from the persisted index, warm keyword recall P50/P95, peak RSS.
// Prints figures and ratios to the targets; run with `npm run bench` (`-- --files N` to resize).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIndexStorage } from '../src/platform/index-storage.js';
import { createNodeFs } from '../src/platform/node-fs.js';
import { createMemory } from '../src/service/memory.js';

/** Small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE = `deploy database migration index query cache redis postgres webhook retry timeout latency queue worker
 test fixture snapshot config flag release branch merge review commit rollback schema column table pool connection
 token secret auth session cookie header request response error warning decision learning pattern gotcha memory
 agent prompt context embedding vector keyword search recall chunk parser markdown heading bullet note daily entry
 playbook dream promote reject checkpoint history diff lineage provenance watcher editor server client protocol`.split(/\s+/).filter(Boolean);

export function generateWorkspace(root: string, files: number, seed = 42): { files: number; bytes: number } {
  const r = rng(seed);
  // Zipf-ish vocabulary: the base words plus synthetic long-tail words.
  const vocab = [...BASE, ...Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}x`)];
  const word = () => vocab[Math.min(vocab.length - 1, Math.floor(vocab.length * r() ** 3))]!;
  const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
  let bytes = 0;
  const write = (p: string, text: string) => {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), text);
    bytes += Buffer.byteLength(text);
  };
  write('gitmem.config.json', JSON.stringify({ version: 1, layout: 'default' }));
  const types = ['error_fix', 'discovery', 'decision', 'learning', 'warning', 'codebase_knowledge', 'preference'];
  for (let i = 0; i < files; i++) {
    if (i % 2 === 0) {
      const day = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      const bullets = Array.from({ length: 25 }, () => `- ${sentence(6 + Math.floor(r() * 10))}`).join('\n');
      write(`memory/daily/${day}.md`, `# ${day}\n\n${bullets}\n`);
    } else {
      const t = types[i % types.length]!;
      const paras = Array.from({ length: 5 }, () => sentence(20 + Math.floor(r() * 20))).join('\n\n');
      write(
        `memory/entries/e-${i}.md`,
        `---\nid: e-${i}\ntype: ${t}\ntitle: ${sentence(5)}\ntags: [${word()}, ${word()}]\ncreated: 2026-01-01\n---\n\n${paras}\n`,
      );
    }
  }
  return { files, bytes };
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
}

export async function runPerf(options: { files?: number; queries?: number } = {}) {
  const files = options.files ?? 10_000;
  const tmp = mkdtempSync(join(tmpdir(), 'gitmem-perf-'));
  const root = join(tmp, 'ws');
  const idx = join(tmp, 'index');
  const lines: string[] = [];
  const say = (s: string) => {
    lines.push(s);
    process.stdout.write(`${s}\n`);
  };
  try {
    const t0 = performance.now();
    const gen = generateWorkspace(root, files);
    say(`workspace: ${gen.files} files, ${(gen.bytes / 1e6).toFixed(1)} MB generated in ${(performance.now() - t0).toFixed(0)} ms`);
    const open = () => createMemory({ fs: createNodeFs(root), openStorage: () => createIndexStorage(idx), freshness: 'manual' });
    const mem = await open();
    const tb = performance.now();
    const built = await mem.index();
    const buildMs = performance.now() - tb;
    say(`full build: ${built.chunks} chunks in ${(buildMs / 1000).toFixed(2)} s (${Math.round(built.chunks / (buildMs / 1000))} chunks/s, keyword only)`);
    const tc = performance.now();
    const cold = await open();
    const coldRep = await cold.index();
    const coldMs = performance.now() - tc;
    say(`cold start with a valid persisted index: ${coldMs.toFixed(0)} ms (source: ${coldRep.source}; target < 1500 ms, ratio ${(coldMs / 1500).toFixed(2)})`);
    const r = rng(7);
    const q = options.queries ?? 300;
    const lat: number[] = [];
    for (let i = 0; i < q; i++) {
      const n = 2 + Math.floor(r() * 3);
      const words = Array.from({ length: n }, () => BASE[Math.floor(r() * BASE.length)]!);
      const ts = performance.now();
      await cold.recall(words.join(' '), { mode: 'keyword' });
      lat.push(performance.now() - ts);
    }
    const p50 = pct(lat, 0.5);
    const p95 = pct(lat, 0.95);
    say(`keyword recall (warm, ${q} queries of 2-4 terms): P50 ${p50.toFixed(2)} ms, P95 ${p95.toFixed(2)} ms (target < 20 ms, ratio ${(p95 / 20).toFixed(2)})`);
    const rss = process.memoryUsage().rss / 1e6;
    say(`RSS after build + queries: ${rss.toFixed(0)} MB (target < 600 MB, ratio ${(rss / 600).toFixed(2)})`);
    return { chunks: built.chunks, buildMs, coldMs, p50, p95, rssMb: rss, lines };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
