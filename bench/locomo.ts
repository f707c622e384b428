// LoCoMo recall benchmark: convert the dataset into temp workspaces (--marker none), answer every
// question of categories 1–4 in ONE long-lived process for each requested mode, and score R@10,
// MRR@10 and the evidence delivered by the product's own 800-byte context block, per category, for
// the tuning half (bench/locomo-score.ts TUNE_HALF) and the held-out test half.
// Run with `npm run bench:locomo`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecallMode, RecallOptions } from '../src/service/recall/types.js';
import { asksHistory } from '../src/service/recall/restatement.js';
import { answerWorkspaces, dayAfterLastNote } from './recall-runner.js';
import {
  evidenceInBlock,
  firstAndSuperseded,
  groupRows,
  renderRows,
  type GroupRow,
  type ScoredQuery,
} from './locomo-score.js';
import { recall } from '../src/service/recall/recall.js';

interface Query {
  id: string;
  workspace: string;
  question: string;
  category: number;
  targets: { dia_id: string; path: string; line: number }[];
}

export async function runLocomo(options: {
  shared: string;
  /** Modes to answer in (default keyword). */
  modes?: readonly RecallMode[];
  out?: string;
  keep?: boolean;
  limit?: number;
  /** Context block budget in UTF-8 bytes (default 800). */
  budget?: number;
  modelDir?: string;
  /** Folder for derived state kept between runs (embeddings are then computed once). */
  cacheDir?: string;
  /** gitmem.config.json written into every converted workspace (e.g. fusion weights). */
  config?: Record<string, unknown>;
  /** Ask each question as one word (its longest word), to measure the single-token rule. */
  singleToken?: boolean;
  /** Only these conversations (default all ten). */
  samples?: readonly string[];
  /**
   * Instead of `modes`: named runs, each a mode with its own recall config (merged over `config`),
   * scored side by side in the same process (`--variants FILE.json`).
   */
  variants?: readonly { label: string; mode: RecallMode; config?: Record<string, unknown> }[];
  /** Write one JSON line per question and variant here (question, block, evidence, delivered), for diagnosis. */
  dump?: string;
  /** Keep each workspace in git, one commit per file on its day (bench/recall-runner.ts commitPerFile): the block shows provenance. */
  git?: boolean;
}) {
  const variants = options.variants?.length
    ? options.variants
    : (options.modes?.length ? options.modes : (['keyword'] as RecallMode[])).map((m) => ({
        label: m,
        mode: m,
        config: undefined,
      }));
  const modes = variants.map((v) => v.label);
  const budget = options.budget ?? 800;
  const bench = join(options.shared, 'bench', 'locomo');
  const tmp = mkdtempSync(join(tmpdir(), 'gitmem-locomo-'));
  const out = join(tmp, 'locomo-out');
  const t0 = performance.now();
  execFileSync(
    process.execPath,
    [
      join(bench, 'convert.mjs'),
      '--out',
      out,
      '--marker',
      'none',
      ...(options.samples?.length ? ['--samples', options.samples.join(',')] : []),
    ],
    { stdio: 'pipe' },
  );
  const queries = readFileSync(join(out, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Query)
    .filter((q) => q.category >= 1 && q.category <= 4);
  const byWs = new Map<string, Query[]>();
  for (const q of queries) byWs.set(q.workspace, [...(byWs.get(q.workspace) ?? []), q]);
  const runLines = new Map<string, string[]>(modes.map((m) => [m, []]));
  const scored = new Map<string, ScoredQuery[]>(modes.map((m) => [m, []]));
  // Questions about change over time (service/recall/restatement.ts asksHistory), scored on their own.
  const historyScored = new Map<string, ScoredQuery[]>(modes.map((m) => [m, []]));
  const dumped: string[] = [];
  const files = new Map<string, string[]>();
  const lineOf = (ws: string, p: string, n: number) => {
    const key = `${ws}/${p}`;
    if (!files.has(key)) files.set(key, readFileSync(join(out, ws, p), 'utf8').split('\n'));
    return files.get(key)![n - 1] ?? '';
  };
  const stats = await answerWorkspaces<Query>({
    root: out,
    byWorkspace: byWs,
    variants,
    ...(options.git ? { git: true } : {}),
    storageDir: options.cacheDir ?? join(tmp, 'index'),
    ...(options.modelDir ? { modelDir: options.modelDir } : {}),
    ...(options.config ? { config: options.config } : {}),
    // The question date: the day after the conversation's last session (the questions are asked after it).
    nowOf: dayAfterLastNote,
    ask: (mem, q, v, ctx) =>
      recall(mem.context, options.singleToken ? longestWord(q.question) : q.question, {
        mode: v.mode,
        limit: options.limit ?? 10,
        budget,
        ...(ctx.now ? { now: ctx.now } : {}),
      } as RecallOptions),
    onAnswer: ({ variant, workspace: ws, query: q, response: res, ms }) => {
      const evidence = new Map<string, { path: string; line: number }[]>();
      for (const t of q.targets)
        evidence.set(t.dia_id, [...(evidence.get(t.dia_id) ?? []), { path: t.path, line: t.line }]);
      const evidenceText = new Map([...evidence].map(([id, ts]) => [id, lineOf(ws, ts[0]!.path, ts[0]!.line)]));
      const results = res.results.map((r) => ({ path: r.path, startLine: r.startLine, endLine: r.endLine }));
      const sq: ScoredQuery = {
        workspace: ws,
        category: q.category,
        evidence,
        evidenceText,
        results,
        block: res.context?.text ?? '',
        superseded: res.results.map((r) => r.newerStatement !== undefined),
      };
      scored.get(variant.label)!.push(sq);
      if (options.dump) {
        const f = firstAndSuperseded(sq);
        dumped.push(
          JSON.stringify({
            variant: variant.label,
            id: q.id,
            workspace: ws,
            category: q.category,
            question: q.question,
            delivered: evidenceInBlock(sq),
            holds: f.holds,
            kept: f.kept,
            top3: results.slice(0, 3).map((r) => `${r.path}:${r.startLine}-${r.endLine}`),
            evidence: [...evidence].map(([id, ts]) => ({ id, ...ts[0]!, text: evidenceText.get(id) })),
            block: sq.block,
          }),
        );
      }
      if (asksHistory(q.question)) historyScored.get(variant.label)!.push(sq);
      runLines
        .get(variant.label)!
        .push(
          JSON.stringify({ id: q.id, results, chunks: res.results.map((r) => r.chunk), ms: Number(ms.toFixed(3)) }),
        );
    },
  });
  if (options.out) writeFileSync(options.out, `${runLines.get(modes[0]!)!.join('\n')}\n`);
  if (options.dump) writeFileSync(options.dump, `${dumped.join('\n')}\n`);
  const rows = new Map<string, GroupRow[]>([...scored].map(([m, qs]) => [m, groupRows(qs)]));
  const summary = {
    queries: queries.length,
    workspaces: byWs.size,
    modes,
    budget,
    indexMs: stats.indexMs,
    embeddedChunks: stats.embedded,
    degradedAnswers: stats.degraded,
    totalMs: Math.round(performance.now() - t0),
    recallP50Ms: stats.p50Ms,
    recallP95Ms: stats.p95Ms,
    maxLinesPerResult: stats.maxSpan,
    meanLinesPerResult: stats.meanSpan,
  };
  if (!options.keep) rmSync(tmp, { recursive: true, force: true });
  const historyRows = new Map<string, GroupRow[]>(
    [...historyScored].map(([m, qs]) => [m, groupRows(qs).filter((r) => r.group === '1-4')]),
  );
  return {
    table: `${renderRows(rows)}\nQuestions about change over time (asksHistory), categories 1-4:\n\n${renderRows(historyRows)}`,
    rows: Object.fromEntries(rows),
    historyRows: Object.fromEntries(historyRows),
    summary,
  };
}

/** The longest word of a question (a stand-in for its rarest, most specific term). */
function longestWord(text: string): string {
  const words = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return words.reduce((a, b) => (b.length > a.length ? b : a), '');
}
