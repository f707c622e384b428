// Big and hostile files (issue 10 §4, B34, docs/DESIGN.md §10): a 50 MB note, a note just under the size cap,
// a 1 MB single line, a binary file named .md, invalid UTF-8, deep nesting and thousands of files in
// one folder are added one after another to one workspace. After each, `gitmem index` and keyword
// recall run as real processes: they must exit 0 within bounded time and memory, report a clear
// diagnostic for what they skip, and still find a normal note (the rest keeps working). Prints time
// and peak RSS for each.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { makeWorkspace, mb, ms, printFigures, removeDir, rng, runCliSync, words } from './common.js';

export interface HostileOptions {
  /** Files in one folder (the issue's figure is 10,000). */
  readonly manyFiles: number;
  /** Folder depth of the deeply nested note. */
  readonly depth: number;
  /** Size of the oversized note in MB (default 50). */
  readonly bigMb?: number;
  /** Size of the note just under the 5 MB cap, in MB (default 4.5). */
  readonly underCapMb?: number;
  readonly seed?: number;
  readonly log?: (line: string) => void;
}

export interface HostileCase {
  readonly name: string;
  readonly indexMs: number;
  readonly indexRss: number | undefined;
  readonly recallMs: number;
  readonly recallRss: number | undefined;
  /** The diagnostic the user sees for the hostile file ('' when it is simply indexed). */
  readonly diagnostic: string;
  /** Exit codes were 0, the diagnostic was there, and the marker and the normal note were found. */
  readonly ok: boolean;
  readonly problems: readonly string[];
}

export interface HostileFigures {
  readonly cases: readonly HostileCase[];
  readonly crashes: number;
  readonly failures: number;
  readonly maxRss: number;
  readonly ms: number;
}

export async function runHostile(options: HostileOptions): Promise<HostileFigures> {
  const t0 = performance.now();
  const rand = rng(options.seed ?? 7);
  const log = options.log ?? (() => undefined);
  const root = makeWorkspace({ model: false, prefix: 'gitmem-hostile-' });
  const cases: HostileCase[] = [];
  let crashes = 0;
  const write = (rel: string, data: string | Uint8Array) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), data);
  };
  // A normal note that must stay findable whatever else is in the workspace.
  write(
    'memory/entries/normal.md',
    '---\nid: normal\ntype: learning\n---\nThe canary note zqcanaryx is always findable.\n',
  );

  async function step(
    name: string,
    setup: () => void,
    expect: {
      marker?: string;
      markerPath?: string;
      diagnostic?: { path: string; pattern: RegExp; via: 'index' | 'validate' };
    },
  ): Promise<void> {
    setup();
    const problems: string[] = [];
    const idx = runCliSync(root, ['--json', 'index'], { rss: true });
    if (idx.code !== 0 || !idx.json) {
      if (idx.code === null || idx.code >= 3) crashes++;
      problems.push(`index exited ${idx.code ?? idx.signal}: ${idx.stderr.slice(0, 300)}`);
    }
    let diagnostic = '';
    if (expect.diagnostic) {
      const d = expect.diagnostic;
      if (d.via === 'index') {
        const s = (idx.json?.skipped ?? []).find((x: { path: string }) => x.path === d.path);
        diagnostic = s ? `${s.code}: ${s.reason}` : '';
      } else {
        const v = runCliSync(root, ['--json', 'validate', d.path]);
        const found = (v.json?.diagnostics ?? []).find(
          (x: { path: string; code: string }) => x.path === d.path && d.pattern.test(`${x.code} ${JSON.stringify(x)}`),
        );
        diagnostic = found ? `${found.code}: ${found.message}` : '';
        if (v.code !== null && v.code >= 3) crashes++;
      }
      if (!d.pattern.test(diagnostic))
        problems.push(`no clear diagnostic for ${d.path} (got ${JSON.stringify(diagnostic) || 'nothing'})`);
    }
    const q = ['zqcanaryx', ...(expect.marker ? [expect.marker] : [])].join(' ');
    const rec = runCliSync(root, ['--json', 'recall', q, '--mode', 'keyword', '--all', '--limit', '50'], { rss: true });
    if (rec.code !== 0 || !rec.json) {
      if (rec.code === null || rec.code >= 3) crashes++;
      problems.push(`recall exited ${rec.code ?? rec.signal}: ${rec.stderr.slice(0, 300)}`);
    } else {
      const paths: string[] = rec.json.results.map((r: { path: string }) => r.path);
      if (!paths.includes('memory/entries/normal.md')) problems.push('the normal note was not found');
      if (expect.markerPath && !paths.includes(expect.markerPath))
        problems.push(`${expect.marker} not found in ${expect.markerPath}`);
    }
    const c: HostileCase = {
      name,
      indexMs: idx.ms,
      indexRss: idx.peakRss,
      recallMs: rec.ms,
      recallRss: rec.peakRss,
      diagnostic,
      ok: problems.length === 0,
      problems,
    };
    cases.push(c);
    for (const p of problems) log(`  ! ${name}: ${p}`);
    log(`  ${name}: index ${ms(c.indexMs)} (${mb(c.indexRss)}), recall ${ms(c.recallMs)} (${mb(c.recallRss)})`);
  }

  try {
    await step('baseline (3 small files)', () => undefined, {});
    const bigMb = options.bigMb ?? 50;
    await step(
      `${bigMb} MB note (over the 5 MB cap)`,
      () => {
        const line = `${words(rand, 12)} zqbigx\n`;
        write('memory/2030-01-01.md', `# 2030-01-01\n\n${line.repeat(Math.ceil((bigMb * 1024 * 1024) / line.length))}`);
      },
      { diagnostic: { path: 'memory/2030-01-01.md', pattern: /too.large|over the .*cap/i, via: 'index' } },
    );
    const underMb = options.underCapMb ?? 4.5;
    await step(
      `${underMb} MB note under the cap (${Math.round(underMb * 20)}k lines)`,
      () => {
        const lines: string[] = ['# Log', ''];
        let size = 0;
        const at = Math.floor(underMb * 10_000);
        for (let i = 0; size < underMb * 1024 * 1024; i++) {
          const l = `- ${i} ${words(rand, 6)}${i === at ? ' zqundercapx' : ''}`;
          lines.push(l);
          size += l.length + 1;
        }
        write('memory/2030-01-02.md', `${lines.join('\n')}\n`);
      },
      { marker: 'zqundercapx', markerPath: 'memory/2030-01-02.md' },
    );
    await step(
      '1 MB single line',
      () => {
        const s = words(rand, 200_000).slice(0, 1024 * 1024 - 40);
        write('memory/entries/one-line.md', `${s} zqonelinex\n`);
      },
      { marker: 'zqonelinex', markerPath: 'memory/entries/one-line.md' },
    );
    await step(
      'binary file named .md',
      () => {
        const b = new Uint8Array(256 * 1024);
        for (let i = 0; i < b.length; i++) b[i] = Math.floor(rand() * 256);
        b[10] = 0;
        write('memory/entries/binary.md', b);
      },
      { diagnostic: { path: 'memory/entries/binary.md', pattern: /binary/i, via: 'index' } },
    );
    await step(
      'invalid UTF-8',
      () => {
        const head = Buffer.from('---\nid: bad-utf8\ntype: learning\n---\nBroken bytes here: ');
        write(
          'memory/entries/bad-utf8.md',
          Buffer.concat([
            head,
            Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xff, 0xfe]),
            Buffer.from(' and zqutf8x after them.\n'),
          ]),
        );
      },
      {
        marker: 'zqutf8x',
        markerPath: 'memory/entries/bad-utf8.md',
        diagnostic: { path: 'memory/entries/bad-utf8.md', pattern: /utf-?8/i, via: 'validate' },
      },
    );
    const deep = `memory/entries/${Array.from({ length: options.depth }, () => 'd').join('/')}/deep.md`;
    await step(
      `deep nesting (${options.depth} folders)`,
      () => write(deep, '---\nid: deep\ntype: learning\n---\nDeep note zqdeepx.\n'),
      { marker: 'zqdeepx', markerPath: deep },
    );
    await step(
      `${options.manyFiles.toLocaleString('en')} files in one folder`,
      () => {
        for (let i = 0; i < options.manyFiles; i++) {
          write(
            `memory/entries/many/m${i}.md`,
            `---\nid: many-${i}\ntype: learning\n---\nMany note ${i}: ${words(rand, 10)}${i === options.manyFiles - 1 ? ' zqmanyx' : ''}.\n`,
          );
        }
      },
      { marker: 'zqmanyx', markerPath: `memory/entries/many/m${options.manyFiles - 1}.md` },
    );
    await step('second index after everything (incremental, nothing changed)', () => undefined, {
      marker: 'zqmanyx',
      markerPath: `memory/entries/many/m${options.manyFiles - 1}.md`,
    });
  } finally {
    if (cases.every((c) => c.ok)) removeDir(dirname(root));
    else log(`  workspace kept for inspection: ${root}`);
  }
  return {
    cases,
    crashes,
    failures: cases.filter((c) => !c.ok).length,
    maxRss: Math.max(0, ...cases.flatMap((c) => [c.indexRss ?? 0, c.recallRss ?? 0])),
    ms: performance.now() - t0,
  };
}

export function printHostile(f: HostileFigures, log: (s: string) => void = console.log): void {
  printFigures(
    'Big and hostile files (keyword index; each step adds to the same workspace)',
    [
      ...f.cases.map(
        (c) =>
          [
            c.name,
            `index ${ms(c.indexMs)} / ${mb(c.indexRss)} peak, recall ${ms(c.recallMs)} / ${mb(c.recallRss)} peak${c.diagnostic ? ` — ${c.diagnostic.slice(0, 90)}` : ''}${c.ok ? '' : ' — FAILED'}`,
          ] as const,
      ),
      ['crashes', f.crashes],
      ['failures', f.failures],
      ['highest peak RSS', mb(f.maxRss)],
      ['wall time', ms(f.ms)],
    ],
    log,
  );
}
