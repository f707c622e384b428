// Injected-instruction detector figures (src/core/injection.ts) for `npm run bench`: the share of
// every markdown line of fixtures/corpora/ it flags (goal ≤ 1 %, each flagged line printed), its
// recall on the labelled attack lines of fixtures/injection/labelled.json (goal ≥ 90 %, misses
// printed), and its false positives on the benign developer lines there.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { injectionOfLine } from '../src/core/injection.js';

export interface InjectionFigures {
  readonly corpusLines: number;
  readonly corpusFlagged: readonly { path: string; line: number; text: string; reason: string }[];
  readonly attacks: number;
  readonly attacksFlagged: number;
  readonly missed: readonly { category: string; text: string }[];
  readonly benign: number;
  readonly benignFlagged: readonly { text: string; reason: string }[];
}

function markdownFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) markdownFiles(p, out);
    else if (/\.(md|markdown)$/i.test(name)) out.push(p);
  }
  return out;
}

/** Measure over the repository at `repo` (fixtures/corpora and fixtures/injection/labelled.json). */
export function measureInjection(repo: string): InjectionFigures {
  const corpora = join(repo, 'fixtures', 'corpora');
  let corpusLines = 0;
  const corpusFlagged: InjectionFigures['corpusFlagged'][number][] = [];
  for (const file of markdownFiles(corpora)) {
    readFileSync(file, 'utf8')
      .split(/\r\n|\r|\n/)
      .forEach((text, i) => {
        if (!text.trim()) return;
        corpusLines++;
        const f = injectionOfLine(text);
        if (f) corpusFlagged.push({ path: relative(corpora, file), line: i + 1, text, reason: f.reason });
      });
  }
  const set = JSON.parse(readFileSync(join(repo, 'fixtures', 'injection', 'labelled.json'), 'utf8')) as {
    attacks: { category: string; text: string }[];
    benign: { text: string }[];
  };
  const missed = set.attacks.filter((a) => !injectionOfLine(a.text));
  const benignFlagged = set.benign.flatMap((b) => {
    const f = injectionOfLine(b.text);
    return f ? [{ text: b.text, reason: f.reason }] : [];
  });
  return {
    corpusLines,
    corpusFlagged,
    attacks: set.attacks.length,
    attacksFlagged: set.attacks.length - missed.length,
    missed,
    benign: set.benign.length,
    benignFlagged,
  };
}

const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(2)} %`;
/** A line as printed: hidden characters escaped, at most 140 characters. */
const shown = (s: string) =>
  JSON.stringify(s.length > 140 ? `${s.slice(0, 139)}…` : s)
    .slice(1, -1)
    .replace(/\\"/g, '"');

/** The bench section's lines. */
export function formatInjection(f: InjectionFigures): string[] {
  const out = [
    `injected instructions: corpora ${f.corpusFlagged.length} of ${f.corpusLines} non-blank markdown lines flagged (${pct(f.corpusFlagged.length, f.corpusLines)}; goal ≤ 1 %)`,
    ...f.corpusFlagged.map((l) => `  flagged ${l.path}:${l.line} (${l.reason}): ${shown(l.text)}`),
    `injected instructions: labelled attacks ${f.attacksFlagged} of ${f.attacks} flagged (recall ${pct(f.attacksFlagged, f.attacks)}; goal ≥ 90 %)`,
    ...f.missed.map((m) => `  missed [${m.category}]: ${shown(m.text)}`),
    `injected instructions: benign developer lines ${f.benignFlagged.length} of ${f.benign} flagged (false positives ${pct(f.benignFlagged.length, f.benign)})`,
    ...f.benignFlagged.map((b) => `  false positive (${b.reason}): ${shown(b.text)}`),
  ];
  return out;
}
