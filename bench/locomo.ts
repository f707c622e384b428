// LoCoMo recall benchmark: convert the dataset into temp workspaces (--marker none), answer every
// question of categories 1–4 with keyword recall in ONE long-lived process, write the scorer's
// results format and print the scorer's table. Run with `npm run bench:locomo`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIndexStorage } from '../src/platform/index-storage.js';
import { createNodeFs } from '../src/platform/node-fs.js';
import { createMemory, type Memory } from '../src/service/memory.js';
import type { RecallMode } from '../src/service/recall.js';

interface Query {
  id: string;
  workspace: string;
  question: string;
  category: number;
}

export async function runLocomo(options: {
  shared: string;
  mode?: RecallMode;
  out?: string;
  keep?: boolean;
  limit?: number;
  modelDir?: string;
  /** Folder for derived state kept between runs (embeddings are then computed once). */
  cacheDir?: string;
  /** gitmem.config.json written into every converted workspace (e.g. fusion weights). */
  config?: Record<string, unknown>;
  /** Ask each question as one word (its longest word), to measure the single-token rule. */
  singleToken?: boolean;
}) {
  const bench = join(options.shared, 'bench', 'locomo');
  const tmp = mkdtempSync(join(tmpdir(), 'gitmem-locomo-'));
  const out = join(tmp, 'locomo-out');
  const t0 = performance.now();
  execFileSync(process.execPath, [join(bench, 'convert.mjs'), '--out', out, '--marker', 'none'], { stdio: 'pipe' });
  const queries = readFileSync(join(out, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Query)
    .filter((q) => q.category >= 1 && q.category <= 4);
  const byWs = new Map<string, Query[]>();
  for (const q of queries) byWs.set(q.workspace, [...(byWs.get(q.workspace) ?? []), q]);
  const lines: string[] = [];
  let indexMs = 0;
  let embedded = 0;
  let degraded = 0;
  let maxSpan = 0;
  let spanSum = 0;
  let resultCount = 0;
  const lat: number[] = [];
  for (const [ws, qs] of [...byWs.entries()].sort()) {
    const root = join(out, ws);
    const storageDir = join(options.cacheDir ?? join(tmp, 'index'), ws);
    if (options.config) writeFileSync(join(root, 'gitmem.config.json'), JSON.stringify({ version: 1, ...options.config }));
    mkdirSync(storageDir, { recursive: true });
    const mem: Memory = await createMemory({
      fs: createNodeFs(root),
      openStorage: () => createIndexStorage(storageDir),
      freshness: 'manual',
      ...(options.modelDir ? { defaultModelDir: options.modelDir } : {}),
    });
    const ti = performance.now();
    const rep = await mem.index();
    indexMs += performance.now() - ti;
    if ((options.mode ?? 'keyword') !== 'keyword' && rep.vectors.unavailable) {
      throw new Error(`semantic recall unavailable: ${rep.vectors.unavailable} (run npm run setup)`);
    }
    embedded += rep.vectors.embedded;
    for (const q of qs) {
      const ts = performance.now();
      const question = options.singleToken ? longestWord(q.question) : q.question;
      const res = await mem.recall(question, { mode: options.mode ?? 'keyword', limit: options.limit ?? 10 });
      const ms = performance.now() - ts;
      lat.push(ms);
      if (res.degraded) degraded++;
      for (const r of res.results) {
        const span = r.endLine - r.startLine + 1;
        maxSpan = Math.max(maxSpan, span);
        spanSum += span;
        resultCount++;
      }
      lines.push(
        JSON.stringify({
          id: q.id,
          results: res.results.map((r) => ({ path: r.path, startLine: r.startLine, endLine: r.endLine })),
          ms: Number(ms.toFixed(3)),
        }),
      );
    }
  }
  const runFile = options.out ?? join(tmp, 'run.jsonl');
  writeFileSync(runFile, `${lines.join('\n')}\n`);
  const jsonFile = join(tmp, 'score.json');
  const table = execFileSync(process.execPath, [join(bench, 'baseline.mjs'), '--bench', out, '--results', runFile, '--json', jsonFile], {
    encoding: 'utf8',
  });
  const score = JSON.parse(readFileSync(jsonFile, 'utf8'));
  // Evidence that reaches an agent inside the default 800-byte context block (the bench's own script).
  const budget = execFileSync(process.execPath, [join(bench, 'budget.mjs'), out, runFile, '800'], { encoding: 'utf8' }).trim();
  lat.sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? 0;
  const summary = {
    queries: queries.length,
    workspaces: byWs.size,
    indexMs: Math.round(indexMs),
    embeddedChunks: embedded,
    degradedAnswers: degraded,
    totalMs: Math.round(performance.now() - t0),
    recallP50Ms: Number(pct(0.5).toFixed(2)),
    recallP95Ms: Number(pct(0.95).toFixed(2)),
    maxLinesPerResult: maxSpan,
    meanLinesPerResult: Number((spanSum / Math.max(1, resultCount)).toFixed(2)),
    runFile,
  };
  if (!options.keep && !options.out) rmSync(tmp, { recursive: true, force: true });
  return { table, score, summary, budget };
}

/** The longest word of a question (a stand-in for its rarest, most specific term). */
function longestWord(text: string): string {
  const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.reduce((a, b) => (b.length > a.length ? b : a), '');
}
