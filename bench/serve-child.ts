// One fresh process serving hybrid recall over a persisted index, for the "peak RSS serving" figure:
//   node serve-child.mjs keyword ROOT INDEX            cold keyword build of ROOT (no model), then print one
//     JSON line: chunks, build ms and the process's peak RSS (the "peak RSS, cold keyword build" figure)
//   node serve-child.mjs build ROOT INDEX MODEL_DIR   index ROOT with synthetic chunk vectors, then exit
//   node serve-child.mjs serve ROOT INDEX MODEL_DIR [QUERIES]
//     load the index and the vectors, answer QUERIES (default 50) hybrid recalls with real query
//     embeddings, each followed by a vector-mode recall of the same query; print one JSON line: peak
//     RSS (MB), RSS now, heap used, external, array buffers, hybrid recall P50/P95 (query embedding
//     included) and vector search P50/P95 (vector-mode recall less the query's embedding), in wall
//     ms and in CPU ms (process.cpuUsage: load-independent). SERVE_PROFILE=file.cpuprofile writes a
//     V8 CPU profile of the recalls (not the load).
// Chunk vectors are synthetic (deterministic unit vectors per text; embedding 50k chunks with the
// real model takes half an hour), so this measures memory and latency, not recall quality.
// Bundled by scripts/bench.mjs next to perf.mjs (bench/perf.ts spawns it).
import { readFileSync, writeFileSync } from 'node:fs';
import { createIndexStorage } from '../src/platform/index-storage.js';
import { createNodeFs } from '../src/platform/node-fs.js';
import { createMemory } from '../src/service/memory.js';
import type { Embedder } from '../src/indexes/embed/embedder.js';
import { createOnnxEmbedder, type OnnxEmbedder } from '../src/indexes/embed/onnx-embedder.js';
import { rng } from './support/random.js';
import { recall } from '../src/service/recall/recall.js';

const WORDS = `deploy database migration index query cache redis postgres webhook retry timeout latency queue worker
 test fixture snapshot config flag release branch merge review commit rollback schema column table pool connection
 token secret auth session cookie header request response error warning decision learning pattern gotcha memory`
  .split(/\s+/)
  .filter(Boolean);

/** Deterministic unit vector of `dims` floats per text (FNV-1a seed). */
function unit(text: string, dims: number): Float32Array {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  const next = rng(h);
  const v = new Float32Array(dims);
  let n = 0;
  for (let i = 0; i < dims; i++) {
    v[i] = next() - 0.5;
    n += v[i]! * v[i]!;
  }
  const inv = 1 / Math.sqrt(n);
  for (let i = 0; i < dims; i++) v[i]! *= inv;
  return v;
}

/**
 * The real model's dims and fingerprint family, with synthetic chunk vectors while `synthetic()` is
 * true and real embeddings (queries) otherwise.
 */
export async function syntheticEmbedder(
  modelDir: string,
  synthetic: () => boolean,
): Promise<
  Embedder & { readonly real: OnnxEmbedder; readonly realMs: () => number; readonly realCpuMs: () => number }
> {
  const real = await createOnnxEmbedder({ modelDir });
  // Wall and CPU ms spent in the real model so far: a recall's time minus its share is the search alone.
  let realMs = 0;
  let realCpuMs = 0;
  const embedReal = async (texts: readonly string[]) => {
    const t0 = performance.now();
    const c0 = cpuMs();
    try {
      return await real.embed(texts);
    } finally {
      realMs += performance.now() - t0;
      realCpuMs += cpuMs() - c0;
    }
  };
  return {
    real,
    realMs: () => realMs,
    realCpuMs: () => realCpuMs,
    modelId: `${real.modelId}+synthetic-chunks`,
    dims: real.dims,
    fingerprint: `bench-synthetic-${real.fingerprint}`,
    embed: (texts) => (synthetic() ? Promise.resolve(texts.map((t) => unit(t, real.dims))) : embedReal(texts)),
    dispose: () => real.dispose(),
  };
}

/** User + system CPU ms of this process so far (all its threads). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Start the V8 CPU profiler; the returned function stops it and writes the profile to a file. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const { Session } = await import('node:inspector');
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((res, rej) => session.post(method, params, (e, r) => (e ? rej(e) : res(r))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return async (file) => {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

/**
 * Peak RSS of this process in MiB. On Linux the high-water mark of its own address space
 * (/proc/self/status VmHWM): getrusage's maxRSS of a process spawned from a large one starts at the
 * parent's RSS (the forked image before exec counts), so a child of the bench reported the bench's
 * own 500–800 MB. Elsewhere maxRSS.
 */
function peakRssMb(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Math.round(Number(m[1]) / 1024);
  } catch {
    /* not Linux */
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/** A cold keyword build in this fresh process, as `gitmem index` does it with no model. */
async function keywordBuild(root: string, idx: string): Promise<void> {
  const mem = await createMemory({
    fs: createNodeFs(root),
    openStorage: () => createIndexStorage(idx),
    freshness: 'manual',
  });
  const t0 = performance.now();
  const rep = await mem.index();
  const ms = performance.now() - t0;
  const peak = peakRssMb();
  await mem.dispose();
  process.stdout.write(
    `${JSON.stringify({ chunks: rep.chunks, ms: Math.round(ms), source: rep.source, peakRssMb: peak })}\n`,
  );
}

async function main(argv: string[]): Promise<void> {
  const [cmd, root, idx, modelDir, n] = argv;
  if (cmd === 'keyword' && root && idx) return keywordBuild(root, idx);
  if ((cmd !== 'build' && cmd !== 'serve') || !root || !idx || !modelDir) {
    process.stderr.write('usage: serve-child keyword ROOT INDEX | build|serve ROOT INDEX MODEL_DIR [QUERIES]\n');
    process.exit(2);
  }
  const startRss = Math.round(process.memoryUsage().rss / 1048576);
  let synthetic = cmd === 'build';
  const embedder = await syntheticEmbedder(modelDir, () => synthetic);
  const real = embedder.real;
  const mem = await createMemory({
    fs: createNodeFs(root),
    openStorage: () => createIndexStorage(idx),
    freshness: 'manual',
    createEmbedder: async () => embedder,
  });
  // RSS (MiB) at each step, always recorded (no forced GC, so the peak is not lowered):
  // start = Node + this bundle evaluated; open = embedder created (vocabulary read, model hashed);
  // index = chunks + vectors loaded; session = onnxruntime imported and its session created;
  // recall1 = the first hybrid recall answered; recalls = all of them. SERVE_STAGES=1 adds heap,
  // external and array-buffer MB and the peak so far per step (run with --expose-gc to collect first).
  const stages: Record<string, number | number[]> = {};
  const mb = (b: number) => Math.round(b / 1e6);
  const stage = (name: string) => {
    const detail = process.env.SERVE_STAGES !== undefined;
    if (detail) (globalThis as { gc?: () => void }).gc?.();
    const u = process.memoryUsage();
    const rss = Math.round(u.rss / 1048576);
    stages[name] = detail ? [rss, mb(u.heapUsed), mb(u.external), mb(u.arrayBuffers), peakRssMb()] : rss;
  };
  stages.start = startRss;
  stage('open');
  const t0 = performance.now();
  const loadCpu0 = cpuMs();
  const rep = await mem.index();
  stage('index');
  const loadMs = performance.now() - t0;
  const loadCpuMs = cpuMs() - loadCpu0;
  if (cmd === 'build') {
    await mem.dispose();
    process.stdout.write(`${JSON.stringify({ chunks: rep.chunks, vectors: rep.vectors.total, ms: loadMs })}\n`);
    return;
  }
  synthetic = false;
  await real.load();
  stage('session');
  const r = rng(11);
  const lat: number[] = [];
  // SERVE_PROFILE=file.cpuprofile: a V8 CPU profile of the recalls alone (not the load).
  const profile = process.env.SERVE_PROFILE ? await startProfile() : undefined;
  // Vector-mode recall of the same query right after, warm: its wall time less the query's embedding
  // (the model's share, timed in the embedder) is the vector search with its results read.
  const search: number[] = [];
  const embedMs: number[] = [];
  // CPU ms of this process (every thread) over the vector-mode recall less that of its query embedding:
  // unlike wall time it does not grow with the machine's load.
  const searchCpu: number[] = [];
  const queries = Number(n ?? 50);
  for (let i = 0; i < queries; i++) {
    const q = Array.from({ length: 3 + Math.floor(r() * 6) }, () => WORDS[Math.floor(r() * WORDS.length)]!).join(' ');
    const ts = performance.now();
    await recall(mem.context, q, { mode: 'hybrid' });
    lat.push(performance.now() - ts);
    if (i === 0) stage('recall1');
    const e0 = embedder.realMs();
    const c0 = embedder.realCpuMs();
    const u0 = cpuMs();
    const tv = performance.now();
    await recall(mem.context, q, { mode: 'vector' });
    const e = embedder.realMs() - e0;
    search.push(performance.now() - tv - e);
    searchCpu.push(cpuMs() - u0 - (embedder.realCpuMs() - c0));
    embedMs.push(e);
  }
  stage('recalls');
  if (profile) await profile(process.env.SERVE_PROFILE!);
  if (process.env.SERVE_HEAP) (await import('node:v8')).writeHeapSnapshot(process.env.SERVE_HEAP);
  lat.sort((a, b) => a - b);
  const at = (xs: number[], p: number) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 10) / 10;
  };
  const u = process.memoryUsage();
  const out = {
    chunks: rep.chunks,
    vectors: rep.vectors.total,
    source: rep.source,
    loadMs: Math.round(loadMs),
    loadCpuMs: Math.round(loadCpuMs),
    recallP50: Math.round(lat[Math.floor(lat.length / 2)] ?? 0),
    recallP95: at(lat, 0.95),
    vectorSearchP50: at(search, 0.5),
    vectorSearchP95: at(search, 0.95),
    vectorSearchCpuP50: at(searchCpu, 0.5),
    vectorSearchCpuP95: at(searchCpu, 0.95),
    queryEmbedP50: at(embedMs, 0.5),
    peakRssMb: peakRssMb(),
    rssMb: mb(u.rss),
    heapUsedMb: mb(u.heapUsed),
    externalMb: mb(u.external),
    arrayBuffersMb: mb(u.arrayBuffers),
    stages,
  };
  await mem.dispose();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

if (process.argv[1] && /serve-child\.m?[jt]s$/.test(process.argv[1])) await main(process.argv.slice(2));
