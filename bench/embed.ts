// Embedder and vector-index micro-benchmark: model load, query embed P50/P95 (1 and 2 threads),
// texts/s for 15- and 60-word chunks (batch 1 and 8), exact top-10 over 50k × 384, tokenizer speed.
// Run: npx esbuild bench/embed.ts --bundle --platform=node --format=esm --external:onnxruntime-node \
//        --outfile=.cache/embed-bench.mjs && node .cache/embed-bench.mjs [--model <dir>]
import { join, resolve } from 'node:path';
import { createOnnxEmbedder } from '../src/indexes/embed/onnx-embedder.js';
import { VectorTable } from '../src/indexes/vector/vector.js';
import { lcg as rng } from './support/random.js';

const argv = process.argv.slice(2);
const at = argv.indexOf('--model');
const modelDir =
  at >= 0 && argv[at + 1] ? resolve(argv[at + 1]!) : join(process.cwd(), 'models', 'all-MiniLM-L6-v2-q4');

const WORDS = `deploy database migration index query cache redis postgres webhook retry timeout latency queue worker
 test fixture snapshot config flag release branch merge review commit rollback schema column table pool connection
 token secret auth session cookie header request response error warning decision learning pattern gotcha memory
 agent prompt context embedding vector keyword search recall chunk parser markdown heading bullet note daily entry`
  .split(/\s+/)
  .filter(Boolean);
const r = rng(42);
const text = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]!).join(' ');
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const f = (x: number) => x.toFixed(1);

const rows: [string, string][] = [];
let t = performance.now();
const e2 = await createOnnxEmbedder({ modelDir, intraOpNumThreads: 2 });
rows.push(['open folder (vocab + weights hash)', `${f(performance.now() - t)} ms`]);
t = performance.now();
await e2.load();
rows.push(['session load (2 threads)', `${f(performance.now() - t)} ms`]);
const e1 = await createOnnxEmbedder({ modelDir, intraOpNumThreads: 1 });
await e1.load();

for (const [name, e] of [
  ['2 threads', e2],
  ['1 thread', e1],
] as const) {
  const qs = Array.from({ length: 220 }, () => text(8));
  const times: number[] = [];
  for (const [i, q] of qs.entries()) {
    const s = performance.now();
    await e.embed([q]);
    if (i >= 20) times.push(performance.now() - s);
  }
  rows.push([`query embed, 8 words, ${name}`, `P50 ${f(pct(times, 50))} ms / P95 ${f(pct(times, 95))} ms`]);
}

for (const words of [15, 60]) {
  const chunks = Array.from({ length: 120 }, () => text(words));
  for (const batch of [1, 8]) {
    const e = batch === 1 ? e2 : await createOnnxEmbedder({ modelDir, batchSize: batch });
    await e.embed(chunks.slice(0, 8));
    const s = performance.now();
    await e.embed(chunks);
    rows.push([
      `${words}-word chunks, batch ${batch}, 2 threads`,
      `${f(chunks.length / ((performance.now() - s) / 1000))} texts/s`,
    ]);
  }
  const s = performance.now();
  await e1.embed(chunks);
  rows.push([
    `${words}-word chunks, batch 1, 1 thread`,
    `${f(chunks.length / ((performance.now() - s) / 1000))} texts/s`,
  ]);
}

const tokTexts = Array.from({ length: 2000 }, () => text(60));
t = performance.now();
for (const x of tokTexts) e2.tokenizer.encode(x);
rows.push(['WordPiece, 60-word texts', `${f(tokTexts.length / ((performance.now() - t) / 1000))} texts/s`]);

const N = 50_000;
const table = new VectorTable(384, N);
const vr = rng(7);
const v = new Float32Array(384);
for (let i = 0; i < N; i++) {
  let n = 0;
  for (let d = 0; d < 384; d++) n += (v[d] = vr() - 0.5) ** 2;
  for (let d = 0; d < 384; d++) v[d]! /= Math.sqrt(n);
  table.set(`h${i}`, v);
}
const [q] = await e2.embed(['why did we pick lunr for keyword search']);
const topTimes: number[] = [];
for (let i = 0; i < 60; i++) {
  const s = performance.now();
  table.topK(q!, 10);
  if (i >= 10) topTimes.push(performance.now() - s);
}
rows.push([`exact top-10 over ${N} × 384`, `P50 ${f(pct(topTimes, 50))} ms / P95 ${f(pct(topTimes, 95))} ms`]);
t = performance.now();
const ser = table.serialize();
const serMs = performance.now() - t;
t = performance.now();
VectorTable.deserialize(ser, 384);
rows.push([
  `serialize / deserialize ${N} vectors (${(ser.vectors.byteLength / 1e6).toFixed(0)} MB)`,
  `${f(serMs)} / ${f(performance.now() - t)} ms`,
]);
rows.push(['peak RSS', `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`]);

const w = Math.max(...rows.map(([a]) => a.length));
console.log(`embedder bench — ${modelDir}, Node ${process.version}`);
for (const [a, b] of rows) console.log(`${a.padEnd(w)}  ${b}`);
