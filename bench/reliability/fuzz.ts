// Fuzzing (issue 10 §3): property-based tests with fast-check over the parser (random markdown,
// front-matter, CRLF/BOM/astral characters, unclosed fences and delimiters), the query layer (every
// lunr operator), path handling (`..`, absolute, NUL, very long, NFD/NFC, symlinks: never escapes the
// root) and the CURRENT_STATE.md parser. Prints cases run and failures (must be 0).
import fc from 'fast-check';
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { posix, join, dirname } from 'node:path';
import { DOC_KINDS, type DocKind } from '../../src/core/document.js';
import { isMemoryError } from '../../src/core/errors.js';
import { resolveRelative, toRelPath } from '../../src/core/paths.js';
import { LineIndex, type Range } from '../../src/core/position.js';
import { withFrontMatterKey } from '../../src/parse/front-matter-edit.js';
import { parseDocument } from '../../src/parse/parse-document.js';
import { parseQuery } from '../../src/indexes/query/query.js';
import { parseState } from '../../src/continuity/parse-state.js';
import { renderState } from '../../src/continuity/render-state.js';
import { appendLine } from '../../src/service/remember/daily.js';
import { createNodeFs } from '../../src/platform/node-fs.js';
import { createIndexStorage } from '../../src/platform/index-storage.js';
import { createMemory } from '../../src/service/memory.js';
import { ms, printFigures, removeDir, tempDir } from './common.js';
import { recall } from '../../src/service/recall/recall.js';

export interface FuzzOptions {
  /** Runs per property (I/O-bound properties run a quarter of it). */
  readonly runs: number;
  readonly seed?: number;
  readonly log?: (line: string) => void;
}

export interface PropertyFigures {
  readonly name: string;
  readonly cases: number;
  readonly failures: number;
  readonly counterexample?: string;
}

export interface FuzzFigures {
  readonly seed: number;
  readonly properties: readonly PropertyFigures[];
  readonly cases: number;
  readonly failures: number;
  readonly ms: number;
}

// ---- generators ----------------------------------------------------------------------------------

const PIECES = [
  '---',
  '---\n',
  '---\r\n',
  '---yaml\n',
  '---toml\n',
  '---js\n',
  '+++\n',
  '...\n',
  '\uFEFF',
  '\r\n',
  '\n',
  '\r',
  '\t',
  ' ',
  '```',
  '```ts\n',
  '~~~',
  '`',
  '# ',
  '## ',
  '###### ',
  '####### ',
  '- ',
  '* ',
  '1. ',
  '> ',
  '> Last updated: ',
  '|a|b|\n|-|-|\n',
  '[x](./missing.md)',
  '[x](../../etc/passwd)',
  '[[wiki]]',
  '[[a|b]]',
  '[[',
  ']]',
  '[',
  '](',
  '<!--',
  '-->',
  '<div>',
  '#tag',
  '#',
  'id: x\n',
  'type: decision\n',
  'tags: [a, b\n',
  'tags: [a]\n',
  'date: 2024-03-10\n',
  'key: "unclosed\n',
  ': bad\n',
  '{}+\n',
  '- - -\n',
  '😀',
  '𝔘𝔫𝔦',
  '東京でミーティング',
  'café',
  'cafe\u0301',
  '\u0000',
  '\u200B',
  '\uFFFD',
  '\uD800',
  '\\',
  '*',
  '_',
  '~',
  '^',
  '|',
  '## Objective\n',
  '## Current Step\n',
  '## Key Decisions\n',
  '## Next Action\n',
  '## Blockers\n',
  '## Unsurfaced Results\n',
  '# Current State\n',
  '- None\n',
  'word ',
  'lorem ipsum dolor ',
  'x'.repeat(300),
];

const markdown = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...PIECES) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
    ),
    { maxLength: 60 },
  )
  .map((xs) => xs.join(''));

const LUNR_OPS = [
  '~',
  '^',
  '+',
  '-',
  '*',
  ':',
  '--',
  '--help',
  '--hard',
  '~2',
  '^10',
  '+-',
  '-+',
  '**',
  'title:',
  'type:',
  'tag:',
  'kind:',
  'type:decision',
  'tag:',
  '\\',
  '"',
  "'",
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '?',
  '!',
  '&&',
  '||',
  'AND',
  'OR',
  'NOT',
  '😀',
  '東京',
  'café',
  'webhook',
  'retries',
  'lunr',
  '\u0000',
  ' ',
  '  ',
  '\t',
  '\n',
];
const query = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...LUNR_OPS) },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 5 }) },
    ),
    { maxLength: 20 },
  )
  .map((xs) => xs.join(fc.sample(fc.constantFrom('', ' ', ' '), 1)[0]!));

const SEGMENTS = [
  '..',
  '.',
  '',
  'a',
  'b',
  'memory',
  'entries',
  'out',
  'loop',
  'A',
  'MEMORY.md',
  'x.md',
  'caf\u00e9.md',
  'cafe\u0301.md',
  'C:',
  'c:',
  '~',
  '%2e%2e',
  '\0',
  'x'.repeat(255),
  'y'.repeat(4100),
  '/',
  '\\',
  ' ',
  '...',
  '.git',
  'CON',
];
const pathInput = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 8 }),
    fc.constantFrom('/', '\\'),
  )
  .map(([abs, segs, sep]) => `${abs ? sep : ''}${segs.join(sep)}`);

// ---- checks --------------------------------------------------------------------------------------

function rangeInside(r: Range, li: LineIndex, text: string): boolean {
  const ok = (line: number, ch: number) => {
    if (!Number.isInteger(line) || !Number.isInteger(ch) || line < 0 || ch < 0 || line >= li.lineCount) return false;
    return ch <= li.lineText(line).length;
  };
  void text;
  return (
    ok(r.start.line, r.start.character) &&
    ok(r.end.line, r.end.character) &&
    (r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character))
  );
}

function checkDoc(text: string, kind: DocKind): void {
  const doc = parseDocument({
    path: toRelPath(kind === 'daily' ? 'memory/2024-01-02.md' : 'memory/entries/x.md'),
    kind,
    text,
  });
  const bare = text.replace(/^\uFEFF/, '');
  if (doc.text !== bare) throw new Error('doc.text differs from the input without its BOM');
  const li = new LineIndex(doc.text);
  const ranges: Range[] = [
    ...doc.diagnostics.map((d) => d.range),
    ...doc.headings.map((h) => h.range),
    ...doc.links.map((l) => l.range),
    ...(doc.frontMatter
      ? [
          doc.frontMatter.range,
          ...Object.values(doc.frontMatter.nodes).flatMap((n) => [n.value, ...(n.key ? [n.key] : [])]),
        ]
      : []),
  ];
  for (const r of ranges)
    if (!rangeInside(r, li, doc.text)) throw new Error(`range outside the text: ${JSON.stringify(r)}`);
  const lastLine = li.lineCount;
  for (const c of doc.chunks) {
    if (!(c.startLine >= 1 && c.startLine <= c.endLine && c.endLine <= lastLine))
      throw new Error(`chunk lines outside the text: ${c.startLine}-${c.endLine} of ${lastLine}`);
  }
  // Pure and repeatable (B08): the same text gives the same result.
  const again = parseDocument({ path: doc.path, kind, text });
  if (JSON.stringify(again) !== JSON.stringify(doc)) throw new Error('two parses of the same text differ');
  // Appends keep every byte that was there (daily notes, ACE's appended lines).
  if (!appendLine(text, '2024-01-02', '- 10:00 added').startsWith(text) && text.replace(/^\uFEFF/, '').trim() !== '')
    throw new Error('appendLine rewrote existing bytes');
  // The one front-matter key editor writes a value that reads back as written (parse/front-matter-edit.ts).
  const keyed = doc.frontMatter?.data ? withFrontMatterKey(doc, 'fuzzed', 'a: "b"') : undefined;
  if (keyed && parseDocument({ path: doc.path, kind, text: keyed }).frontMatter?.data?.fuzzed !== 'a: "b"')
    throw new Error('withFrontMatterKey wrote a value that does not read back');
}

function checkState(text: string): void {
  const p = parseState(text);
  const n = p.lines.length;
  for (const pr of p.problems)
    if (!(pr.line >= 0 && pr.line <= pr.endLine && pr.endLine < Math.max(n, 1)))
      throw new Error(`problem outside the text: ${pr.line}-${pr.endLine} of ${n}`);
  for (const s of p.sections)
    if (!(s.headingLine < n && s.bodyStart <= s.bodyEnd && s.bodyEnd <= n))
      throw new Error(`section outside the text: ${JSON.stringify(s)}`);
  if (p.updated && !(p.updated.line < n)) throw new Error('Last updated line outside the text');
  // Rendering with unchanged fields keeps every line of sections the schema does not know.
  const out = renderState(p, p.fields, '2024-01-02T10:00:00+00:00').split(/\r\n|\n|\r/);
  const have = new Set(out);
  for (const s of p.sections.filter((x) => !x.known)) {
    for (let i = s.bodyStart; i < s.bodyEnd; i++) {
      const l = p.lines[i]!;
      // The `> Last updated:` line is structure (it is rewritten with the new time), not section text.
      if (i === p.updated?.line) continue;
      if (l.trim() && !have.has(l)) throw new Error(`unknown section line dropped: ${JSON.stringify(l)}`);
    }
  }
}

/** @returns undefined when the path was refused; throws when the refusal is not a MemoryError. */
function relOrRefused(input: string): string | undefined {
  try {
    return toRelPath(input);
  } catch (e) {
    if (isMemoryError(e, 'path.invalid') || isMemoryError(e, 'path.outside-root')) return undefined;
    throw e;
  }
}

function checkRel(input: string): void {
  const p = relOrRefused(input);
  if (p === undefined) return;
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.includes('\0') || p.includes('\\'))
    throw new Error(`unsafe RelPath ${JSON.stringify(p)}`);
  if (p.split('/').includes('..')) throw new Error(`RelPath with .. : ${JSON.stringify(p)}`);
  const abs = posix.resolve('/root/ws', p);
  if (!abs.startsWith('/root/ws/')) throw new Error(`${JSON.stringify(p)} resolves outside: ${abs}`);
  const link = resolveRelative(toRelPath('memory/entries/x.md'), input);
  if (link !== undefined && (link.split('/').includes('..') || link.startsWith('/')))
    throw new Error(`resolveRelative escaped: ${link}`);
}

// ---- runner --------------------------------------------------------------------------------------

async function property(
  name: string,
  prop: fc.IProperty<any> | fc.IAsyncProperty<any>,
  runs: number,
  seed: number,
  log: (s: string) => void,
): Promise<PropertyFigures> {
  const res = await fc.check(prop as fc.IAsyncProperty<any>, { numRuns: runs, seed });
  if (!res.failed) return { name, cases: res.numRuns, failures: 0 };
  const counterexample = `${JSON.stringify(res.counterexample)?.slice(0, 400)} — ${String(res.errorInstance ?? '').slice(0, 300)}`;
  log(`  ! ${name}: ${counterexample}`);
  return { name, cases: res.numRuns, failures: 1, counterexample };
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzFigures> {
  const t0 = performance.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const log = options.log ?? (() => undefined);
  const runs = options.runs;
  const io = Math.max(20, Math.floor(runs / 4));
  const props: PropertyFigures[] = [];
  const tmp = tempDir('gitmem-fuzz-');
  try {
    props.push(
      await property(
        'parser: never throws, positions inside the text, repeatable, appends keep bytes',
        fc.property(markdown, fc.constantFrom(...DOC_KINDS), (text, kind) => checkDoc(text, kind)),
        runs,
        seed,
        log,
      ),
    );
    props.push(
      await property(
        'CURRENT_STATE parser: never throws, lines inside, unknown sections kept',
        fc.property(markdown, (t) => checkState(t)),
        runs,
        seed,
        log,
      ),
    );
    props.push(
      await property(
        'query parser: never throws on any text (every lunr operator)',
        fc.property(fc.oneof(query, fc.string(), fc.string({ unit: 'binary' })), (q) => {
          const p = parseQuery(q);
          if (!Array.isArray(p.terms)) throw new Error('no terms array');
        }),
        runs * 2,
        seed,
        log,
      ),
    );

    // Recall over a real workspace (keyword mode, index built once).
    const ws = join(tmp, 'ws');
    mkdirSync(join(ws, 'memory', 'entries'), { recursive: true });
    writeFileSync(join(ws, 'gitmem.config.json'), JSON.stringify({ layout: 'default', model: { enabled: false } }));
    writeFileSync(
      join(ws, 'memory', 'MEMORY.md'),
      '# Memory\n\n- Webhook retries use exponential backoff.\n- Use git reset --hard only after a checkpoint.\n- 東京でミーティング, café über résumé.\n',
    );
    writeFileSync(
      join(ws, 'memory', 'entries', 'use-lunr.md'),
      '---\nid: use-lunr\ntype: decision\ntags: [search]\n---\nUse lunr for keyword search; module loader is general purpose.\n',
    );
    const memory = await createMemory({
      fs: createNodeFs(ws),
      openStorage: () => createIndexStorage(join(tmp, 'idx')),
      freshness: 'manual',
      lexicalWorker: false,
    });
    await memory.index();
    props.push(
      await property(
        'recall (keyword): never throws on user text, results within the limit',
        fc.asyncProperty(
          fc.oneof(query, fc.string({ unit: 'grapheme' })),
          fc.integer({ min: 1, max: 60 }),
          async (q, limit) => {
            try {
              const r = await recall(memory.context, q, { mode: 'keyword', limit });
              if (r.results.length > Math.min(limit, 50))
                throw new Error(`${r.results.length} results for limit ${limit}`);
            } catch (e) {
              if (isMemoryError(e) && (e.code.startsWith('query.') || e.code === 'usage')) return;
              throw e;
            }
          },
        ),
        runs,
        seed,
        log,
      ),
    );
    await memory.dispose();

    props.push(
      await property(
        'paths: toRelPath/resolveRelative never escape the root',
        fc.property(pathInput, (p) => checkRel(p)),
        runs * 2,
        seed,
        log,
      ),
    );

    // The node file system: writes through random paths never land outside the root.
    const root = join(tmp, 'root');
    const outside = join(tmp, 'outside');
    mkdirSync(join(root, 'memory'), { recursive: true });
    mkdirSync(outside);
    symlinkSync(outside, join(root, 'out'));
    symlinkSync(join(root, 'loop'), join(root, 'loop'));
    const nfs = createNodeFs(root);
    props.push(
      await property(
        'node fs: read/write/create/lock through random paths never touch anything outside the root',
        fc.asyncProperty(pathInput, fc.constantFrom('write', 'create', 'read', 'stat', 'lock'), async (input, op) => {
          const p = relOrRefused(input);
          if (p === undefined) return;
          const rel = p as ReturnType<typeof toRelPath>;
          try {
            if (op === 'write') await nfs.writeTextAtomic(rel, 'x');
            else if (op === 'create') await nfs.createTextExclusive!(rel, 'x');
            else if (op === 'read') await nfs.read(rel);
            else if (op === 'stat') await nfs.stat(rel);
            else await nfs.withFileLock!(rel, async () => undefined, { waitMs: 50 });
          } catch (e) {
            if (!isMemoryError(e)) throw e;
          }
          if (readdirSync(outside).length > 0) throw new Error(`${op} ${JSON.stringify(input)} wrote outside the root`);
        }),
        io,
        seed,
        log,
      ),
    );
    if (!existsSync(root)) throw new Error('root vanished');
  } finally {
    removeDir(tmp);
    void dirname;
  }
  return {
    seed,
    properties: props,
    cases: props.reduce((s, p) => s + p.cases, 0),
    failures: props.reduce((s, p) => s + p.failures, 0),
    ms: performance.now() - t0,
  };
}

export function printFuzz(f: FuzzFigures, log: (s: string) => void = console.log): void {
  printFigures(
    `Fuzzing (fast-check; seed ${f.seed})`,
    [
      ...f.properties.map((p) => [p.name, `${p.cases} cases, ${p.failures} failures`] as const),
      ['cases run', f.cases],
      ['failures', f.failures],
      ['wall time', ms(f.ms)],
    ],
    log,
  );
}
