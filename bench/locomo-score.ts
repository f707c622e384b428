// LoCoMo scoring inside the bench: R@10 and MRR@10 per category group, split into the tuning half
// (the first five conversations) and the held-out test half, plus evidence delivered by the
// product's own rendered context block. Pure: no I/O.

/** Conversations used to tune ranking knobs; every other conversation is the test half. */
export const TUNE_HALF: readonly string[] = ['conv-26', 'conv-30', 'conv-41', 'conv-42', 'conv-43'];

export const CATEGORY_NAMES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
};

export interface ScoredQuery {
  readonly workspace: string;
  readonly category: number;
  /** Distinct evidence ids with the file lines that hold each. */
  readonly evidence: ReadonlyMap<string, readonly { path: string; line: number }[]>;
  /** Text of each evidence id's turn (first target line). */
  readonly evidenceText: ReadonlyMap<string, string>;
  readonly results: readonly { path: string; startLine: number; endLine: number }[];
  /** The rendered context block (may be empty). */
  readonly block: string;
  /** Per result: labelled superseded by a later note (implicit supersession, `newerStatement`). */
  readonly superseded?: readonly boolean[];
}

const STOP = new Set(
  'the and for are but not you all any can had her was one our out has him his how its may new now old see two way who did get got let put say she too use that with have this will your from they know want been good much some time very when come here just like long make many more only over such take than them well were what which while would there their about could other into then these also because after where those being should really thing things yeah great going'.split(
    ' ',
  ),
);

/** Distinct content words (3+ letters, lower case, not a stop word) of `text`. */
export function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/\p{L}{3,}/gu)) if (!STOP.has(m[0])) out.add(m[0]);
  return out;
}

/**
 * Share of a question's evidence turns delivered by `block`: a turn counts when at least 60 % of its
 * distinct content words appear in the block (a turn with no content words counts when its text does).
 */
export function evidenceInBlock(q: ScoredQuery): number {
  if (q.evidenceText.size === 0) return 0;
  const have = contentWords(q.block);
  let got = 0;
  for (const text of q.evidenceText.values()) {
    const want = contentWords(text.replace(/^\s*[-*]\s+/, ''));
    if (want.size === 0) {
      if (text.trim() && q.block.includes(text.trim())) got++;
      continue;
    }
    let n = 0;
    for (const w of want) if (have.has(w)) n++;
    if (n / want.size >= 0.6) got++;
  }
  return got / q.evidenceText.size;
}

/** R@10 and MRR@10 of one query's ranked results. */
export function rankScores(q: ScoredQuery): { r10: number; mrr10: number } {
  const top = q.results.slice(0, 10);
  const holds = (r: { path: string; startLine: number; endLine: number }, id: string) =>
    (q.evidence.get(id) ?? []).some((t) => t.path === r.path && t.line >= r.startLine && t.line <= r.endLine);
  let found = 0;
  for (const id of q.evidence.keys()) if (top.some((r) => holds(r, id))) found++;
  let mrr = 0;
  for (let i = 0; i < top.length; i++) {
    if ([...q.evidence.keys()].some((id) => holds(top[i]!, id))) {
      mrr = 1 / (i + 1);
      break;
    }
  }
  return { r10: q.evidence.size ? found / q.evidence.size : 0, mrr10: mrr };
}

/**
 * The first result holds evidence (`holds`), and the block delivers an evidence turn that result
 * holds (`kept`); and how many evidence turns of the top 10 are labelled superseded.
 */
export function firstAndSuperseded(q: ScoredQuery): {
  holds: boolean;
  kept: boolean;
  inTop: number;
  superseded: number;
} {
  const top = q.results.slice(0, 10);
  const ids = (r: { path: string; startLine: number; endLine: number }) =>
    [...q.evidence.keys()].filter((id) =>
      (q.evidence.get(id) ?? []).some((t) => t.path === r.path && t.line >= r.startLine && t.line <= r.endLine),
    );
  const first = top[0] ? ids(top[0]) : [];
  const kept = first.some(
    (id) => evidenceInBlock({ ...q, evidenceText: new Map([[id, q.evidenceText.get(id) ?? '']]) }) > 0,
  );
  let inTop = 0;
  let superseded = 0;
  top.forEach((r, i) => {
    const n = ids(r).length;
    inTop += n;
    if (q.superseded?.[i]) superseded += n;
  });
  return { holds: first.length > 0, kept, inTop, superseded };
}

export interface GroupRow {
  readonly half: 'tune' | 'test';
  readonly group: string;
  readonly n: number;
  readonly r10: number;
  readonly mrr10: number;
  readonly evidence800: number;
  /** Of the queries whose first result holds evidence, the share whose block delivers that evidence. */
  readonly firstKept: number;
  readonly firstHolds: number;
  /** Evidence turns in the top 10 labelled superseded by a later note, ÷ evidence turns in the top 10. */
  readonly falseSuperseded: number;
  readonly evidenceInTop: number;
}

/** Rows per half × (each category, all 1–4). */
export function groupRows(qs: readonly ScoredQuery[]): GroupRow[] {
  const rows: GroupRow[] = [];
  for (const half of ['tune', 'test'] as const) {
    const inHalf = qs.filter((q) => q.evidence.size > 0 && TUNE_HALF.includes(q.workspace) === (half === 'tune'));
    const groups: [string, ScoredQuery[]][] = [
      ...[1, 2, 3, 4].map(
        (c) => [`${c} ${CATEGORY_NAMES[c]}`, inHalf.filter((q) => q.category === c)] as [string, ScoredQuery[]],
      ),
      ['1-4', inHalf],
    ];
    for (const [group, g] of groups) {
      const s = g.map(rankScores);
      const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
      const fs = g.map(firstAndSuperseded);
      const holds = fs.filter((x) => x.holds);
      const inTop = fs.reduce((a, x) => a + x.inTop, 0);
      rows.push({
        half,
        group,
        n: g.length,
        r10: mean(s.map((x) => x.r10)),
        mrr10: mean(s.map((x) => x.mrr10)),
        evidence800: mean(g.map(evidenceInBlock)),
        firstHolds: holds.length,
        firstKept: holds.length ? holds.filter((x) => x.kept).length / holds.length : 0,
        evidenceInTop: inTop,
        falseSuperseded: inTop ? fs.reduce((a, x) => a + x.superseded, 0) / inTop : 0,
      });
    }
  }
  return rows;
}

/** A Markdown table of rows for several modes. */
export function renderRows(byMode: ReadonlyMap<string, readonly GroupRow[]>): string {
  const lines = [
    '| half | group | n | mode | R@10 | MRR@10 | evidence@800B | first kept | superseded evidence |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  const first = [...byMode.values()][0] ?? [];
  for (let i = 0; i < first.length; i++) {
    for (const [mode, rows] of byMode) {
      const r = rows[i]!;
      const bold = (s: string) => (r.group === '1-4' ? `**${s}**` : s);
      lines.push(
        `| ${r.half} | ${r.group} | ${r.n} | ${mode} | ${bold(r.r10.toFixed(3))} | ${bold(r.mrr10.toFixed(3))} | ${bold(r.evidence800.toFixed(3))} | ${r.firstKept.toFixed(3)} (${r.firstHolds}) | ${r.falseSuperseded.toFixed(3)} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
