// Performance benchmark (docs/DESIGN.md §9): a deterministic workspace of 10,000 memory files (~50,000
// chunks); full build, cold start from the persisted index, warm keyword recall P50/P95, peak RSS;
// freshness (watcher: one file saved → recall returns it, keyword and hybrid), compaction time and
// recall P95 while a compaction runs in the worker thread.
// Prints figures and ratios to the targets; run with `npm run bench` (`-- --files N` to resize).
import { conflictBenchLines } from './conflicts.js';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIndexStorage } from '../src/platform/index-storage.js';
import { createNodeFs } from '../src/platform/node-fs.js';
import { createChokidarWatcher } from '../src/platform/watcher.js';
import { createMemory, type Memory, type MemoryChangeEvent } from '../src/service/memory.js';
import type { Embedder } from '../src/indexes/embed/embedder.js';
import { createOnnxEmbedder } from '../src/indexes/embed/onnx-embedder.js';
import { formatThroughput, measureEmbedThroughput } from './embed-throughput.js';
import { formatLspEmbed, measureLspDuringEmbed } from './lsp-embed.js';
import { formatLspEdit, lspEditBuilds, measureLspEdit } from './lsp-edit.js';
import { formatInjection, measureInjection } from './injection.js';
import { rng } from './support/random.js';
import { writePathFigures } from './write-path.js';
import { recall } from '../src/service/recall/recall.js';

const BASE = `deploy database migration index query cache redis postgres webhook retry timeout latency queue worker
 test fixture snapshot config flag release branch merge review commit rollback schema column table pool connection
 token secret auth session cookie header request response error warning decision learning pattern gotcha memory
 agent prompt context embedding vector keyword search recall chunk parser markdown heading bullet note daily entry
 playbook dream promote reject checkpoint history diff lineage provenance watcher editor server client protocol`
  .split(/\s+/)
  .filter(Boolean);

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Edit → visible: append a unique word to an existing note (a plain save, as an editor does) and
 * poll recall until it returns that note (hybrid: until the new chunk also has a vector score).
 */
async function freshness(
  mem: Memory,
  root: string,
  notes: readonly string[],
  n: number,
  mode: 'keyword' | 'hybrid',
): Promise<{ lat: number[]; misses: number; update: number[] }> {
  const lat: number[] = [];
  const update: number[] = [];
  // Keyword mode: an update is done when its keyword index is published; hybrid: when the
  // background catch-up that follows it has embedded its chunks (the `vectors` event, B41).
  const sub = mem.onDidChange((e) => {
    if (mode === 'keyword' ? e.reason === 'changes' : e.reason === 'vectors' && e.vectorMs !== null)
      update.push(mode === 'keyword' ? e.keywordMs : e.vectorMs!);
  });
  let misses = 0;
  for (let i = 0; i < n; i++) {
    const rel = notes[(i * 37) % notes.length]!;
    const word = `fresh${mode}${i}zq`;
    const abs = join(root, rel);
    const text = readFileSync(abs, 'utf8');
    const t0 = performance.now();
    writeFileSync(abs, `${text}\n- ${word} saved from the editor\n`);
    for (;;) {
      const res = await recall(mem.context, word, { mode, limit: 5 });
      const hit = res.results.find((r) => r.path === rel);
      if (hit && (mode === 'keyword' || hit.scores.vector !== null)) break;
      if (performance.now() - t0 > 10_000) {
        misses++;
        break;
      }
      await sleep(2);
    }
    lat.push(performance.now() - t0);
    await mem.settled();
  }
  sub.dispose();
  return { lat, misses, update };
}

function nextEvent(mem: Memory, accept: (e: MemoryChangeEvent) => boolean): Promise<MemoryChangeEvent> {
  return new Promise((resolve) => {
    const sub = mem.onDidChange((e) => {
      if (!accept(e)) return;
      sub.dispose();
      resolve(e);
    });
  });
}

export async function runPerf(
  options: {
    files?: number;
    queries?: number;
    hybridFiles?: number;
    edits?: number;
    embedFiles?: number;
    only?: string;
  } = {},
) {
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
    if (options.only === 'lsp-edit') {
      // One-line edits in a 60,000-line open note (B46); `before` when GITMEM_BENCH_BEFORE names an older cli.js.
      for (const line of formatLspEdit(await measureLspEdit(lspEditBuilds(process.cwd()), { rounds: 2 }), 60_000))
        say(line);
      return;
    }
    // Injected-instruction detector: corpora share flagged, labelled recall, benign false positives (bench/injection.ts).
    if (options.only === undefined || options.only === 'injection')
      for (const line of formatInjection(measureInjection(process.cwd()))) say(line);
    if (options.only === 'injection') return;
    // The possible-conflict check on the labelled pairs (issue 41): precision and recall with the goal (bench/conflicts.ts).
    if (options.only === undefined || options.only === 'conflicts')
      for (const line of conflictBenchLines(process.cwd())) say(line);
    if (options.only === 'conflicts') return;
    if (options.only !== 'write') await embedThroughput(join(tmp, 'embed-ws'), options.embedFiles, say);
    if (options.only === 'embed') return;
    const t0 = performance.now();
    const gen = generateWorkspace(root, files);
    say(
      `workspace: ${gen.files} files, ${(gen.bytes / 1e6).toFixed(1)} MB generated in ${(performance.now() - t0).toFixed(0)} ms`,
    );
    const cli = join(process.cwd(), 'dist', 'cli.cjs');
    if (options.only === 'write') return void (await writePathFigures(root, files, cli, say));
    const open = () =>
      createMemory({ fs: createNodeFs(root), openStorage: () => createIndexStorage(idx), freshness: 'manual' });
    // The cold keyword build runs in a fresh process (bench/serve-child.ts `keyword`): its peak RSS is
    // the build's own, not this process's high-water mark (the embedding figures above ran here).
    const child = join(dirname(fileURLToPath(import.meta.url)), 'serve-child.mjs');
    let built: { chunks: number };
    let buildMs: number;
    let buildRss: number | undefined;
    const mem = await open();
    if (existsSync(child)) {
      const out = execFileSync(process.execPath, [child, 'keyword', root, idx], { encoding: 'utf8' });
      const b = JSON.parse(out.trim().split('\n').pop()!) as { chunks: number; ms: number; peakRssMb: number };
      built = b;
      buildMs = b.ms;
      buildRss = b.peakRssMb;
    } else {
      // Not bundled by scripts/bench.mjs: build here; this process's peak then includes the figures before.
      const tb = performance.now();
      built = await mem.index();
      buildMs = performance.now() - tb;
    }
    say(
      `full build: ${built.chunks} chunks in ${(buildMs / 1000).toFixed(2)} s (${Math.round(built.chunks / (buildMs / 1000))} chunks/s, keyword only, fresh process)`,
    );
    // Freshness by stat: past the racy window, one walk records the stat keys; then a no-op update
    // and a one-file edit, in process (bench:peers measures the same as separate processes).
    await sleep(2500);
    await mem.index();
    const tn = performance.now();
    await mem.index();
    const noopMs = performance.now() - tn;
    const editPath = join(root, 'memory', 'entries', 'e-1.md');
    writeFileSync(editPath, `${readFileSync(editPath, 'utf8')}\n- edited once for the update figure\n`);
    const te = performance.now();
    await mem.index();
    const editMs = performance.now() - te;
    say(
      `no-op update ${noopMs.toFixed(0)} ms; one file edited → update ${editMs.toFixed(0)} ms; peak RSS of the cold build's process ${buildRss === undefined ? '— (serve-child.mjs not bundled; run npm run bench)' : `${buildRss.toFixed(0)} MB`}`,
    );
    const tc = performance.now();
    const cold = await open();
    const coldRep = await cold.index();
    const coldMs = performance.now() - tc;
    say(
      `cold start with a valid persisted index: ${coldMs.toFixed(0)} ms (source: ${coldRep.source}; target < 1500 ms, ratio ${(coldMs / 1500).toFixed(2)})`,
    );
    const r = rng(7);
    const q = options.queries ?? 300;
    const lat: number[] = [];
    for (let i = 0; i < q; i++) {
      const n = 2 + Math.floor(r() * 3);
      const words = Array.from({ length: n }, () => BASE[Math.floor(r() * BASE.length)]!);
      const ts = performance.now();
      await recall(cold.context, words.join(' '), { mode: 'keyword' });
      lat.push(performance.now() - ts);
    }
    const p50 = pct(lat, 0.5);
    const p95 = pct(lat, 0.95);
    say(
      `keyword recall (warm, ${q} queries of 2-4 terms): P50 ${p50.toFixed(2)} ms, P95 ${p95.toFixed(2)} ms (target < 20 ms, ratio ${(p95 / 20).toFixed(2)})`,
    );
    const rss = process.memoryUsage().rss / 1e6;
    say(`RSS after build + queries: ${rss.toFixed(0)} MB (target < 600 MB, ratio ${(rss / 600).toFixed(2)})`);
    const serveRss = await vectorFigures(root, idx, BASE, q, say);

    // Freshness: the watcher on the big workspace, one file saved at a time.
    const edits = options.edits ?? 30;
    const session = await cold.startWatching(createChokidarWatcher);
    const notes = Array.from({ length: Math.min(files, 2000) }, (_, i) =>
      i % 2 === 0
        ? `memory/daily/${new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)}.md`
        : `memory/entries/e-${i}.md`,
    );
    const kw = await freshness(cold, root, notes, edits, 'keyword');
    const f50 = pct(kw.lat, 0.5);
    const f95 = pct(kw.lat, 0.95);
    say(
      `edit → visible, keyword (watcher, ${edits} saves, ${built.chunks} chunks, compactions ${session.builder === 'worker' ? 'in a worker' : 'inline'}): ` +
        `P50 ${f50.toFixed(0)} ms, P95 ${f95.toFixed(0)} ms (target < 300 ms, ratio ${(f95 / 300).toFixed(2)})${kw.misses ? `; ${kw.misses} not visible within 10 s` : ''}; ` +
        `of which the index update (read, parse, delta, swap, save) P50 ${pct(kw.update, 0.5).toFixed(0)} ms`,
    );

    // A compaction: a 2,100-chunk note pushes the delta past the threshold; recall keeps answering.
    const big = Array.from(
      { length: 2100 },
      (_, i) => `${BASE[i % BASE.length]} compaction paragraph ${i} ${BASE[(i * 7) % BASE.length]}`,
    ).join('\n\n');
    const started = nextEvent(cold, (e) => e.reason === 'changes' && e.delta > 2000);
    const compacted = nextEvent(cold, (e) => e.reason === 'compaction');
    writeFileSync(join(root, 'memory', 'big-note.md'), `# big\n\n${big}\n`);
    await started;
    const tc0 = performance.now();
    let done = false;
    void compacted.then(() => {
      done = true;
    });
    const during: number[] = [];
    while (!done) {
      const words = Array.from({ length: 2 + Math.floor(r() * 3) }, () => BASE[Math.floor(r() * BASE.length)]!);
      const ts = performance.now();
      await recall(cold.context, words.join(' '), { mode: 'keyword' });
      during.push(performance.now() - ts);
      await sleep(5);
    }
    const compactMs = performance.now() - tc0;
    const d95 = pct(during, 0.95);
    say(
      `compaction of ${built.chunks + 2100} chunks (${session.builder}): ${(compactMs / 1000).toFixed(2)} s; keyword recall meanwhile (${during.length} queries): ` +
        `P50 ${pct(during, 0.5).toFixed(2)} ms, P95 ${d95.toFixed(2)} ms (target < 100 ms, ratio ${(d95 / 100).toFixed(2)})`,
    );
    await cold.stopWatching();
    await cold.dispose();
    await mem.dispose();

    // Hybrid freshness needs every chunk embedded first: a smaller workspace (embedding 50k chunks takes minutes).
    let hybrid: { p50: number; p95: number } | undefined;
    const modelDir = process.env.GITMEM_MODEL_DIR ?? join(process.cwd(), 'models', 'all-MiniLM-L6-v2-q4');
    const hFiles = options.hybridFiles ?? 100;
    if (hFiles <= 0) say('edit → visible, hybrid: skipped (--hybrid-files 0)');
    else if (!existsSync(modelDir)) say(`edit → visible, hybrid: skipped (no model at ${modelDir}; run npm run setup)`);
    else {
      const hroot = join(tmp, 'hws');
      generateWorkspace(hroot, hFiles, 11);
      const hmem = await createMemory({
        fs: createNodeFs(hroot),
        openStorage: () => createIndexStorage(join(tmp, 'hindex')),
        freshness: 'manual',
        defaultModelDir: modelDir,
      });
      const th = performance.now();
      const hb = await hmem.index();
      say(
        `hybrid workspace: ${hFiles} files, ${hb.chunks} chunks, ${hb.vectors.total} embedded in ${((performance.now() - th) / 1000).toFixed(1)} s`,
      );
      await hmem.startWatching(createChokidarWatcher);
      const hnotes = Array.from({ length: hFiles }, (_, i) =>
        i % 2 === 0
          ? `memory/daily/${new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)}.md`
          : `memory/entries/e-${i}.md`,
      );
      const hy = await freshness(hmem, hroot, hnotes, Math.max(10, Math.floor(edits * 0.5)), 'hybrid');
      hybrid = { p50: pct(hy.lat, 0.5), p95: pct(hy.lat, 0.95) };
      say(
        `edit → visible, hybrid (watcher, embedding included, ${hy.lat.length} saves, ${hb.chunks}-chunk workspace): ` +
          `P50 ${hybrid.p50.toFixed(0)} ms, P95 ${hybrid.p95.toFixed(0)} ms (target < 500 ms, ratio ${(hybrid.p95 / 500).toFixed(2)})${hy.misses ? `; ${hy.misses} not visible within 10 s` : ''}; ` +
          `of which the index update with embedding P50 ${pct(hy.update, 0.5).toFixed(0)} ms`,
      );
      await hmem.stopWatching();
      await hmem.dispose();
    }
    const goal = (label: string, v: number | undefined, target: number, unit: string) =>
      say(
        `| ${label} | ${v === undefined ? '—' : `${v.toFixed(0)} ${unit}`} | ≤ ${target} ${unit} | ${v === undefined ? '—' : (v / target).toFixed(2)} |`,
      );
    say('\n| figure (issue #14 goals; one-shot figures: npm run bench:peers) | measured | goal | ratio |');
    say('| --- | --- | --- | --- |');
    goal(`no-op update, ${files} files (in process)`, noopMs, 300, 'ms');
    goal(`one file edited, update, ${files} files (in process)`, editMs, 500, 'ms');
    goal(`peak RSS, cold keyword build, ${files} files`, buildRss, 600, 'MB');
    goal(`peak RSS, fresh process serving ${built.chunks} chunks hybrid`, serveRss, 300, 'MB');
    goal('cold start with a valid index (open, load, stat walk; in process)', coldMs, 300, 'ms');
    await writePathFigures(root, files, cli, say);
    return {
      chunks: built.chunks,
      buildMs,
      coldMs,
      p50,
      p95,
      rssMb: rss,
      freshness: { keyword: { p50: f50, p95: f95 }, hybrid },
      compaction: { ms: compactMs, recallP95: d95 },
      lines,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Bulk embedding chunks/s, old settings against new, in this run (bench/embed-throughput.ts), over
 * the real chunks of fixtures/corpora/aegis (376 chunks), or `--embed-files N` generated files.
 */
async function embedThroughput(root: string, files: number | undefined, say: (s: string) => void): Promise<void> {
  const modelDir = join(process.cwd(), 'models', 'all-MiniLM-L6-v2-q4');
  if (files) generateWorkspace(root, files);
  else cpSync(join(process.cwd(), 'fixtures', 'corpora', 'aegis'), root, { recursive: true });
  say(`bulk embedding over ${files ? `${files} generated files` : 'the fixtures/corpora/aegis chunks'}:`);
  const rows = await measureEmbedThroughput(root, modelDir);
  if (!rows) say(`bulk embedding: skipped (no model at ${modelDir}; run npm run setup)`);
  else for (const line of formatThroughput(rows)) say(line);
  const lsp = await measureLspDuringEmbed(process.cwd(), modelDir);
  if (!lsp) say('editor latency during a re-embed: skipped (needs dist/ from npm run build and the model)');
  else for (const line of formatLspEmbed(lsp)) say(line);
}

/**
 * Vector and hybrid recall latency at full size (docs/DESIGN.md §9). Embedding 50,000 chunks with the real
 * model takes 20–40 minutes, so the chunk vectors here are synthetic (deterministic unit vectors per
 * chunk text) while every QUERY is embedded by the real ONNX model: the figures are search plus
 * query-embedding latency over the full table (50k × 384 at the default size), not recall quality.
 */
async function vectorFigures(
  root: string,
  idx: string,
  words: readonly string[],
  queries: number,
  say: (s: string) => void,
): Promise<number | undefined> {
  const modelDir = join(process.cwd(), 'models', 'all-MiniLM-L6-v2-q4');
  if (!existsSync(modelDir)) {
    say(`vector/hybrid recall: skipped (no model at ${modelDir}; run npm run setup)`);
    return undefined;
  }
  const real = await createOnnxEmbedder({ modelDir });
  let synthetic = true;
  const unit = (text: string): Float32Array => {
    let h = 2166136261;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
    const next = rng(h);
    const v = new Float32Array(real.dims);
    let n = 0;
    for (let i = 0; i < v.length; i++) {
      v[i] = next() - 0.5;
      n += v[i]! * v[i]!;
    }
    const inv = 1 / Math.sqrt(n);
    for (let i = 0; i < v.length; i++) v[i]! *= inv;
    return v;
  };
  const embedder: Embedder = {
    modelId: `${real.modelId}+synthetic-chunks`,
    dims: real.dims,
    fingerprint: `bench-synthetic-${real.fingerprint}`,
    embed: (texts) => (synthetic ? Promise.resolve(texts.map(unit)) : real.embed(texts)),
    dispose: () => real.dispose(),
  };
  const mem = await createMemory({
    fs: createNodeFs(root),
    openStorage: () => createIndexStorage(idx),
    freshness: 'manual',
    createEmbedder: async () => embedder,
    // Absent topics would be cut by the score floor against synthetic vectors; keep every hit.
  });
  const t0 = performance.now();
  const rep = await mem.index();
  say(
    `vector table: ${rep.vectors.total} synthetic chunk vectors in ${((performance.now() - t0) / 1000).toFixed(1)} s (query embeddings are real)`,
  );
  synthetic = false;
  const r = rng(11);
  for (const mode of ['vector', 'hybrid'] as const) {
    const lat: number[] = [];
    for (let i = 0; i < Math.min(queries, 200); i++) {
      const n = 3 + Math.floor(r() * 6);
      const q = Array.from({ length: n }, () => words[Math.floor(r() * words.length)]!).join(' ');
      const ts = performance.now();
      await recall(mem.context, q, { mode });
      lat.push(performance.now() - ts);
    }
    const target = mode === 'vector' ? 25 : 50;
    const p95 = pct(lat, 0.95);
    say(
      `${mode} recall (warm, query embedding included, ${rep.vectors.total} vectors): P50 ${pct(lat, 0.5).toFixed(2)} ms, P95 ${p95.toFixed(2)} ms (target < ${target} ms, ratio ${(p95 / target).toFixed(2)})`,
    );
  }
  await mem.dispose();
  // Peak RSS of a fresh process that loads this index (chunks + vectors) and answers 30 hybrid
  // recalls (bench/serve-child.ts, bundled next to this file by scripts/bench.mjs).
  const child = join(dirname(fileURLToPath(import.meta.url)), 'serve-child.mjs');
  if (!existsSync(child)) {
    say('peak RSS serving (fresh process): skipped (serve-child.mjs not bundled; run npm run bench)');
    return undefined;
  }
  const out = execFileSync(process.execPath, [child, 'serve', root, idx, modelDir, '30'], { encoding: 'utf8' });
  const served = JSON.parse(out.trim().split('\n').pop()!) as {
    chunks: number;
    vectors: number;
    peakRssMb: number;
    heapUsedMb: number;
    recallP50: number;
    stages: Record<string, number>;
  };
  say(
    `fresh process serving ${served.chunks} chunks + ${served.vectors} vectors, 30 hybrid recalls: peak RSS ${served.peakRssMb} MB ` +
      `(heap ${served.heapUsedMb} MB at the end; recall P50 ${served.recallP50} ms)`,
  );
  const st = served.stages;
  say(
    `  its RSS by step: Node + bundle ${st.start} MB, embedder created ${st.open}, index loaded ${st.index}, ` +
      `onnxruntime session ${st.session}, first recall ${st.recall1}, after 30 recalls ${st.recalls}`,
  );
  return served.peakRssMb;
}
