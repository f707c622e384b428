// MemoryCode recall benchmark (coding and workplace rules that change across sessions): convert the
// shared dialogues with the dataset's own convert.mjs into a temp folder, ask every question through
// MCP `memory_recall` (limit 10, budget 800) in one long-lived process per mode, dump one run file per
// mode and score it with the dataset's score.mjs (R@10, MRR@10, stale>cur, stale@1 per category).
// Delivered@800B and "first result holds the current rule and so does the block" are scored here on
// the rendered block, with LoCoMo's rule (bench/locomo-score.ts evidenceInBlock).
// Run with `npm run bench:memorycode`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeFs } from '../src/platform/node-fs.js';
import { createMcpTools } from '../src/mcp/tool-set.js';
import type { RecallMode, RecallResponse } from '../src/service/recall/types.js';
import { evidenceInBlock, type ScoredQuery } from './locomo-score.js';
import { answerWorkspaces, dayAfterLastNote, type Variant } from './recall-runner.js';

interface Line {
  readonly dia_id: string;
  readonly path: string;
  readonly line: number;
  readonly pivot: string;
}
interface Query {
  id: string;
  workspace: string;
  question: string;
  category: string;
  targets: Line[];
  stale: Line[];
}

/** One category row of one mode. */
export interface McRow {
  readonly mode: string;
  readonly group: string;
  readonly n: number;
  readonly r10: number;
  readonly mrr10: number;
  readonly delivered: number;
  /** Share of queries whose first result holds a current line and whose block delivers it. */
  readonly firstKept: number | null;
  /** Share of queries whose first result holds a current line (the denominator of firstKept). */
  readonly firstHolds: number;
  /** Over changed rules (the scorer's stale table); null when the group has none. */
  readonly staleAboveCur: number | null;
  readonly stale1: number | null;
  readonly rules: number;
  /** Share of changed-rule queries whose block delivers a stale line but no current one. */
  readonly staleOnlyBlock: number | null;
}

/** Goals of issue 45 (printed beside the figures). */
export const GOALS = { staleAboveCur: 0.1, stale1: 0.05, delivered: 0.85, firstKept: 0.95 };

export async function runMemoryCode(options: {
  shared: string;
  modes?: readonly RecallMode[];
  /** Write each mode's run file here (`<out>.<mode>.jsonl`). */
  out?: string;
  modelDir?: string;
  cacheDir?: string;
  budget?: number;
  /** Only these workspaces (dlg-NNN), for a quick look. */
  workspaces?: readonly string[];
  /** Write one JSON line per question and mode here (question, block, delivered, first holds/kept), for diagnosis. */
  dump?: string;
  /** Keep each workspace in git, one commit per file on its day (bench/recall-runner.ts commitPerFile): the block shows provenance. */
  git?: boolean;
}): Promise<{ rows: McRow[]; table: string; summary: Record<string, unknown> }> {
  const modes = options.modes?.length ? options.modes : (['keyword', 'hybrid'] as RecallMode[]);
  const variants: Variant[] = modes.map((m) => ({ label: m, mode: m }));
  const budget = options.budget ?? 800;
  const bench = join(options.shared, 'bench', 'memorycode');
  const tmp = mkdtempSync(join(tmpdir(), 'gitmem-memorycode-'));
  try {
    const out = join(tmp, 'mc');
    execFileSync(process.execPath, [join(bench, 'convert.mjs'), '--out', out], { stdio: 'pipe' });
    const queries = readFileSync(join(out, 'queries.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Query)
      .filter((q) => !options.workspaces?.length || options.workspaces.includes(q.workspace));
    const byWs = new Map<string, Query[]>();
    for (const q of queries) byWs.set(q.workspace, [...(byWs.get(q.workspace) ?? []), q]);
    const files = new Map<string, string[]>();
    const lineOf = (ws: string, p: string, n: number) => {
      const key = `${ws}/${p}`;
      if (!files.has(key)) files.set(key, readFileSync(join(out, ws, p), 'utf8').split('\n'));
      return files.get(key)![n - 1] ?? '';
    };
    const runs = new Map<string, string[]>(modes.map((m) => [m, []]));
    const blocks = new Map<string, Map<string, { res: RecallResponse; q: Query }>>(modes.map((m) => [m, new Map()]));
    const stats = await answerWorkspaces<Query>({
      root: out,
      byWorkspace: byWs,
      variants,
      ...(options.git ? { git: true } : {}),
      storageDir: options.cacheDir ?? join(tmp, 'index'),
      ...(options.modelDir ? { modelDir: options.modelDir } : {}),
      nowOf: dayAfterLastNote,
      ask: async (mem, q, v, ctx) => {
        const tools = createMcpTools({ memory: mem, fs: createNodeFs(ctx.root), git: {} });
        const r = await tools.call('memory_recall', { query: q.question, mode: v.mode, limit: 10, budget });
        if (!r.ok) throw new Error(`memory_recall failed on ${q.id}: ${r.error.message}`);
        return r.data as unknown as RecallResponse;
      },
      onAnswer: ({ variant, query: q, response, ms }) => {
        const results = response.results.map((r) => ({ path: r.path, startLine: r.startLine, endLine: r.endLine }));
        runs.get(variant.label)!.push(JSON.stringify({ id: q.id, results, ms: Number(ms.toFixed(3)) }));
        blocks.get(variant.label)!.set(q.id, { res: response, q });
      },
    });
    const rows: McRow[] = [];
    const dumped: string[] = [];
    for (const mode of modes) {
      const runFile = options.out ? `${options.out}.${mode}.jsonl` : join(tmp, `run.${mode}.jsonl`);
      writeFileSync(runFile, `${runs.get(mode)!.join('\n')}\n`);
      const perQuery = join(tmp, `per-query.${mode}.jsonl`);
      execFileSync(
        process.execPath,
        [
          join(bench, 'score.mjs'),
          '--bench',
          out,
          '--results',
          runFile,
          '--json',
          join(tmp, 'r.json'),
          '--per-query',
          perQuery,
        ],
        { stdio: 'pipe' },
      );
      const scored = new Map(
        readFileSync(perQuery, 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map(
            (l) =>
              JSON.parse(l) as { id: string; r10: number; mrr: number; rules: { above: number; stale1: number }[] },
          )
          .map((s) => [s.id, s] as const),
      );
      const cats = [...new Set(queries.map((q) => q.category))].sort();
      for (const group of [...cats, 'all']) {
        const qs = queries.filter((q) => (group === 'all' || q.category === group) && q.targets.length);
        let delivered = 0;
        let first = 0;
        let firstKept = 0;
        let staleOnly = 0;
        let changed = 0;
        const rules: { above: number; stale1: number }[] = [];
        for (const q of qs) {
          const { res } = blocks.get(mode)!.get(q.id)!;
          const s = scoreQuestion(q, res, lineOf);
          delivered += s.delivered;
          if (s.holds) first++;
          if (s.holds && s.kept) firstKept++;
          if (options.dump && group === 'all') dumped.push(dumpLine(mode, q, res, s, lineOf));
          if (q.stale.length) changed++;
          if (s.staleOnly) staleOnly++; // only a changed rule (one with stale lines) counts
          rules.push(...(scored.get(q.id)?.rules ?? []));
        }
        const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
        rows.push({
          mode,
          group,
          n: qs.length,
          r10: mean(qs.map((q) => scored.get(q.id)?.r10 ?? 0)),
          mrr10: mean(qs.map((q) => scored.get(q.id)?.mrr ?? 0)),
          delivered: delivered / Math.max(1, qs.length),
          firstHolds: first / Math.max(1, qs.length),
          firstKept: first ? firstKept / first : null,
          rules: rules.length,
          staleAboveCur: rules.length ? mean(rules.map((r) => r.above)) : null,
          stale1: rules.length ? mean(rules.map((r) => r.stale1)) : null,
          staleOnlyBlock: changed ? staleOnly / changed : null,
        });
      }
    }
    if (options.dump) writeFileSync(options.dump, `${dumped.join('\n')}\n`);
    return {
      rows,
      table: renderMcRows(rows),
      summary: { queries: queries.length, workspaces: byWs.size, modes, budget, ...stats },
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The text of line `n` (1-based) of file `p` in workspace `ws` of the converted dataset. */
type LineOf = (ws: string, p: string, n: number) => string;

/** One question of one mode, scored on its answer and rendered block. */
interface QuestionScore {
  /** Share of its current-rule units the block delivers. */
  readonly delivered: number;
  /** The first result holds a current line. */
  readonly holds: boolean;
  /** The block delivers at least one of its units (first kept, when `holds`). */
  readonly kept: boolean;
  /** A changed rule whose block delivers a stale line but no current one. */
  readonly staleOnly: boolean;
}

/** Scores `q`'s answer `res` with LoCoMo's rule (bench/locomo-score.ts evidenceInBlock) on its block. */
function scoreQuestion(q: Query, res: RecallResponse, lineOf: LineOf): QuestionScore {
  const block = res.context?.text ?? '';
  const sq = (lines: readonly Line[]): ScoredQuery => {
    const evidence = new Map<string, { path: string; line: number }[]>();
    for (const t of lines) evidence.set(t.dia_id, [...(evidence.get(t.dia_id) ?? []), t]);
    // A unit is delivered when any of its lines is (the rule and the mentee's read-back say the same).
    return {
      workspace: q.workspace,
      category: 0,
      evidence,
      evidenceText: new Map(lines.map((t, i) => [`${t.dia_id}#${i}`, lineOf(q.workspace, t.path, t.line)])),
      results: [],
      block,
    };
  };
  const units = [...new Set(q.targets.map((t) => t.dia_id))];
  const got = units.filter((u) => evidenceInBlock(sq(q.targets.filter((t) => t.dia_id === u))) > 0).length;
  const top = res.results[0];
  const holds = !!top && q.targets.some((t) => t.path === top.path && t.line >= top.startLine && t.line <= top.endLine);
  return {
    delivered: got / units.length,
    holds,
    kept: got > 0,
    staleOnly: q.stale.length > 0 && got === 0 && evidenceInBlock(sq(q.stale)) > 0,
  };
}

/** One `--dump` line: the question, its score, the top results, its current and stale lines and the block. */
function dumpLine(mode: string, q: Query, res: RecallResponse, s: QuestionScore, lineOf: LineOf): string {
  const lines = q.targets.map((t) => ({ ...t, text: lineOf(q.workspace, t.path, t.line) }));
  const stale = q.stale.map((t) => ({ ...t, text: lineOf(q.workspace, t.path, t.line) }));
  const top3 = res.results.slice(0, 3).map((r) => `${r.path}:${r.startLine}-${r.endLine}`);
  // Every result with the newer statement that supersedes it, if any (where a block loses the rule).
  const ranked = res.results.map((r) =>
    r.newerStatement
      ? `${r.path}:${r.startLine}-${r.endLine} < ${r.newerStatement.path}:${r.newerStatement.line}`
      : `${r.path}:${r.startLine}-${r.endLine}`,
  );
  return JSON.stringify({
    mode,
    id: q.id,
    category: q.category,
    question: q.question,
    delivered: s.delivered,
    holds: s.holds,
    top3,
    ranked,
    targets: lines,
    stale,
    block: res.context?.text ?? '',
  });
}

/** A Markdown table of the rows, with the goals in the header. */
export function renderMcRows(rows: readonly McRow[]): string {
  const f = (x: number | null) => (x === null ? '–' : x.toFixed(3));
  const lines = [
    `| category | n | mode | R@10 | MRR@10 | delivered@800B (≥ ${GOALS.delivered}) | first kept (≥ ${GOALS.firstKept}) | rules | stale>cur (≤ ${GOALS.staleAboveCur}) | stale@1 (≤ ${GOALS.stale1}) | stale-only block |`,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const groups = [...new Set(rows.map((r) => r.group))];
  for (const g of groups)
    for (const r of rows.filter((x) => x.group === g)) {
      const b = (s: string) => (g === 'all' ? `**${s}**` : s);
      lines.push(
        `| ${g} | ${r.n} | ${r.mode} | ${b(f(r.r10))} | ${b(f(r.mrr10))} | ${b(f(r.delivered))} | ${f(r.firstKept)} | ${r.rules} | ${b(f(r.staleAboveCur))} | ${b(f(r.stale1))} | ${f(r.staleOnlyBlock)} |`,
      );
    }
  return `${lines.join('\n')}\n`;
}
