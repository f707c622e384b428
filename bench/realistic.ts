// A realistic workspace for the benchmarks (issue 46): real sentences, not a synthetic vocabulary.
// Text comes from LoCoMo's dialogue turns (../shared/bench/locomo/data/locomo10.json; speakers renamed
// per file) and the vendored corpora under fixtures/corpora/ (their markdown lines, front-matter and
// code fences left out). The mix: daily notes in year/month folders (about 55 %), typed entries with
// front-matter (25 %), notes in nested topic folders (20 %) and a few very large notes (one in 2,000,
// at least two, 256 KB–1 MB). About 4 KB a file on average; deterministic for a seed.
// deps: node:* and bench/support/random.ts only.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rng } from './support/random.js';

/** One dialogue turn of LoCoMo, with the conversation's two speaker names (to rename per file). */
interface Turn {
  readonly speaker: 0 | 1;
  readonly text: string;
}

interface Sources {
  /** LoCoMo sessions: turns in order, and the conversation's speaker names. */
  readonly sessions: readonly { readonly names: readonly [string, string]; readonly turns: readonly Turn[] }[];
  /** Markdown lines of the vendored corpora, grouped by file (front-matter and code fences left out). */
  readonly passages: readonly (readonly string[])[];
  /** LoCoMo questions (for the query set). */
  readonly questions: readonly string[];
}

const NAMES =
  'Ada Alan Alice Amara Anil Aria Ben Bea Carl Chen Dana Dev Eli Emma Farah Finn Gita Hugo Ines Ivan Jade Jon Kai Kira Lena Leo Maya Mia Nadia Noah Omar Orla Pia Priya Quinn Ravi Rosa Sam Sara Tara Theo Uma Vera Wen Xia Yara Yusuf Zoe'.split(
    ' ',
  );
const TYPES = ['error_fix', 'discovery', 'decision', 'learning', 'warning', 'codebase_knowledge', 'preference'];
const AREAS = ['projects', 'people', 'research', 'ops', 'reading', 'meetings', 'design', 'travel'];
const TOPICS = ['alpha', 'beta', 'gamma', 'delta', 'kappa', 'lambda', 'sigma', 'omega', 'zeta', 'theta'];
const STOP = new Set(
  'a an and are as at be by did do does for from had has have he her his how i in is it its of on or she that the their them they this to was what when where which who why will with would you your'.split(
    ' ',
  ),
);

function loadSources(shared: string | undefined, corpora: string): Sources {
  const sessions: { names: [string, string]; turns: Turn[] }[] = [];
  const questions: string[] = [];
  const file = shared ? join(shared, 'bench', 'locomo', 'data', 'locomo10.json') : undefined;
  if (file && existsSync(file)) {
    const convs = JSON.parse(readFileSync(file, 'utf8')) as {
      conversation: Record<string, unknown>;
      qa: { question: string }[];
    }[];
    for (const c of convs) {
      const names = [String(c.conversation.speaker_a), String(c.conversation.speaker_b)] as [string, string];
      for (const [k, v] of Object.entries(c.conversation)) {
        if (!/^session_\d+$/.test(k) || !Array.isArray(v)) continue;
        const turns = (v as { speaker: string; text: string }[]).map((t) => ({
          speaker: (t.speaker === names[0] ? 0 : 1) as 0 | 1,
          text: t.text.replace(/\s+/g, ' ').trim(),
        }));
        if (turns.length) sessions.push({ names, turns });
      }
      for (const q of c.qa) questions.push(q.question);
    }
  }
  const passages: string[][] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.md')) {
        const lines: string[] = [];
        let fence = false;
        let front = false;
        readFileSync(p, 'utf8')
          .split(/\r?\n/)
          .forEach((l, i) => {
            if (i === 0 && l.trim() === '---') return void (front = true);
            if (front) return void (front = l.trim() !== '---');
            if (/^\s*(```|~~~)/.test(l)) return void (fence = !fence);
            if (!fence && l.trim().length > 20) lines.push(l.trim());
          });
        if (lines.length >= 3) passages.push(lines);
      }
    }
  };
  if (existsSync(corpora)) walk(corpora);
  if (!sessions.length && !passages.length) throw new Error(`no source text: neither LoCoMo nor ${corpora} found`);
  return { sessions, passages, questions };
}

/** What {@link generateRealisticWorkspace} wrote. */
export interface RealisticWorkspace {
  readonly files: number;
  readonly bytes: number;
  /** Keyword queries made of real words of the workspace (LoCoMo questions, stop words removed). */
  readonly queries: string[];
  /** A small daily note to edit for the update figures. */
  readonly editable: string;
}

/**
 * Write `files` memory files under `root` (default layout: memory/…) plus gitmem.config.json.
 * `shared`: the team's shared folder (LoCoMo); without it only the corpora's lines are used.
 * `corpora`: the vendored corpora folder (fixtures/corpora). Deterministic for (`files`, `seed`).
 */
export function generateRealisticWorkspace(
  root: string,
  files: number,
  options: { shared?: string; corpora: string; seed?: number; queries?: number },
): RealisticWorkspace {
  const src = loadSources(options.shared, options.corpora);
  const r = rng(options.seed ?? 46);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  let bytes = 0;
  let first = '';
  const dirs = new Set<string>();
  const write = (p: string, text: string) => {
    const dir = join(root, p, '..');
    if (!dirs.has(dir)) {
      mkdirSync(dir, { recursive: true });
      dirs.add(dir);
    }
    writeFileSync(join(root, p), text);
    if (!first && p.endsWith('.md')) first = p;
    bytes += Buffer.byteLength(text);
  };
  write('gitmem.config.json', JSON.stringify({ version: 1, layout: 'default' }));
  /** `n` consecutive dialogue turns of one session (wrapping), speakers renamed for this file. */
  const dialogue = (n: number): { names: [string, string]; lines: string[] } => {
    if (!src.sessions.length) return { names: [pick(NAMES), pick(NAMES)], lines: prose(n) };
    const s = pick(src.sessions);
    const a = pick(NAMES);
    let b = pick(NAMES);
    if (b === a) b = NAMES[(NAMES.indexOf(a) + 1) % NAMES.length]!;
    const names: [string, string] = [a, b];
    const re = new RegExp(`\\b(${s.names.map((x) => x.replace(/[^\w]/g, '')).join('|')})\\b`, 'g');
    const start = Math.floor(r() * s.turns.length);
    const lines: string[] = [];
    for (let i = 0; i < n; i++) {
      const t = s.turns[(start + i) % s.turns.length]!;
      const text = t.text.replace(re, (m) => (m === s.names[0] ? a : b));
      lines.push(`- **${names[t.speaker]}**: ${text}`);
    }
    return { names, lines };
  };
  /** `n` consecutive corpus lines of one file (wrapping); dialogue turns when there are no corpora. */
  function prose(n: number): string[] {
    if (!src.passages.length) return dialogue(n).lines;
    const p = pick(src.passages);
    const start = Math.floor(r() * p.length);
    return Array.from({ length: n }, (_, i) => p[(start + i) % p.length]!);
  }
  const day0 = Date.UTC(2019, 0, 1);
  const perDay = Math.max(1, Math.ceil(files / 3650));
  const big = Math.max(2, Math.floor(files / 2000));
  const bigEvery = Math.max(1, Math.floor(files / big));
  let editable = '';
  for (let i = 0; i < files; i++) {
    if (i % bigEvery === bigEvery - 1 && i / bigEvery < big) {
      // A very large note: a running log of many sessions (256 KB–1 MB).
      const target = 256 * 1024 + Math.floor(r() * 768 * 1024);
      const parts: string[] = [`# Log ${i}\n`];
      let size = 0;
      for (let s = 0; size < target; s++) {
        const body = (s % 2 ? prose(12) : dialogue(20).lines).join('\n');
        parts.push(`\n## Part ${s + 1}\n\n${body}\n`);
        size += body.length + 20;
      }
      write(`memory/archive/log-${i}.md`, parts.join(''));
      continue;
    }
    const roll = r();
    if (roll < 0.55) {
      const d = new Date(day0 + Math.floor(i / perDay) * 86_400_000).toISOString().slice(0, 10);
      const suffix = i % perDay ? `-${i % perDay}` : '';
      const { names, lines } = dialogue(24 + Math.floor(r() * 16));
      const path = `memory/daily/${d.slice(0, 4)}/${d.slice(5, 7)}/${d}${suffix}.md`;
      write(path, `# ${d}\n\n## Talk with ${names[1]}\n\n${lines.join('\n')}\n`);
      if (!editable) editable = path;
    } else if (roll < 0.8) {
      const t = pick(TYPES);
      const title = prose(1)[0]!
        .replace(/^[#>*\-\s\d.]+/, '')
        .slice(0, 70);
      const tags = [pick(TOPICS), pick(AREAS)];
      const body = [prose(6 + Math.floor(r() * 8)).join('\n'), dialogue(10 + Math.floor(r() * 14)).lines.join('\n')];
      write(
        `memory/entries/${t}/${2019 + (i % 7)}/e-${i}.md`,
        `---\nid: e-${i}\ntype: ${t}\ntitle: ${JSON.stringify(title)}\ntags: [${tags.join(', ')}]\ncreated: ${new Date(day0 + (i % 2500) * 86_400_000).toISOString().slice(0, 10)}\n---\n\n${body.join('\n\n')}\n`,
      );
    } else {
      const sections = Array.from(
        { length: 2 + Math.floor(r() * 3) },
        (_, k) => `## ${pick(TOPICS)} ${k + 1}\n\n${prose(5 + Math.floor(r() * 10)).join('\n')}\n`,
      );
      write(
        `memory/notes/${pick(AREAS)}/${pick(TOPICS)}/${pick(TOPICS)}/note-${i}.md`,
        `# Note ${i}\n\n${sections.join('\n')}`,
      );
    }
  }
  const qr = rng((options.seed ?? 46) + 1);
  const queries: string[] = [];
  const wanted = options.queries ?? 40;
  for (let k = 0; queries.length < wanted && k < wanted * 20; k++) {
    const q = src.questions.length
      ? src.questions[Math.floor(qr() * src.questions.length)]!
      : prose(1)[0]!.replace(/[#>*-]/g, ' ');
    const words = q
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s]/gu, ' ')
      .split(/\s+/)
      .filter((w) => w && !STOP.has(w));
    if (words.length) queries.push(words.slice(0, 4).join(' '));
  }
  return { files, bytes, queries, editable: editable || first };
}
