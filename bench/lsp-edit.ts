// One-line edits in a big open note (B46): a real `gitmem lsp --stdio` with a generated 60,000-line
// daily note open; each edit changes one line through an incremental didChange and is measured until
// keyword recall answers the new word at that line (the buffer was parsed and diagnosed before the
// index update that makes it visible). The server's CPU time per edit is read from /proc, so the
// quiet periods do not count. Several server builds (`before` from an older dist/, `after` from this
// one) run alternately in the same process. `npm run bench -- --only lsp-edit` (GITMEM_BENCH_BEFORE
// names the older cli.js), or bundled on its own: node lsp-edit.mjs before=old/cli.js after=dist/cli.cjs.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rng } from './support/random.js';
import { spawnLsp } from './support/lsp-process.js';

const WORDS = `deploy database migration index query cache redis postgres webhook retry timeout latency queue worker
 test fixture snapshot config flag release branch merge review commit rollback schema column table pool connection
 session cookie header request response error warning decision learning pattern gotcha agent prompt context
 keyword search recall chunk parser markdown heading bullet note entry playbook checkpoint history diff watcher`
  .split(/\s+/)
  .filter(Boolean);

/**
 * A daily note of `lines` lines: a heading every 40 lines, bullets of 6–15 words (a long tail of
 * rare words), a wiki link every 50 lines (some to no note), one fake key marked allowed.
 */
export function bigDailyNote(lines: number, seed = 46): string {
  const r = rng(seed);
  const vocab = [...WORDS, ...Array.from({ length: 8000 }, (_, i) => `t${i.toString(36)}q`)];
  const word = () => vocab[Math.min(vocab.length - 1, Math.floor(vocab.length * r() ** 3))]!;
  const out = ['# 2026-12-01', ''];
  while (out.length < lines) {
    const i = out.length;
    if (i % 40 === 0)
      out.push(`## ${String(8 + ((i / 40) % 12)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')} block ${i / 40}`);
    else if (i % 40 === 1) out.push('');
    else if (i % 50 === 7)
      out.push(`- see [[${i % 100 === 7 ? 'runbook' : `missing-${i}`}]] about ${word()} ${word()}`);
    else if (i === 1003) out.push('- example key AKIAIOSFODNN7EXAMPLE gitmem:allow-secret');
    else out.push(`- ${Array.from({ length: 6 + Math.floor(r() * 10) }, word).join(' ')}`);
  }
  return `${out.slice(0, lines).join('\n')}\n`;
}

/** The workspace: gitmem.config.json, MEMORY.md, one entry (`runbook`) and the big daily note. */
export function bigNoteWorkspace(root: string, lines: number): string {
  const w = (p: string, t: string) => {
    mkdirSync(join(root, p, '..'), { recursive: true });
    writeFileSync(join(root, p), t);
  };
  w('gitmem.config.json', JSON.stringify({ version: 1, layout: 'default' }));
  w('memory/MEMORY.md', '# Memory\n\n- The staging database is reset every night.\n');
  w(
    'memory/entries/runbook.md',
    '---\nid: runbook\ntype: learning\ntags: [ops]\n---\n\nRestart the queue worker first.\n',
  );
  const rel = 'memory/daily/2026-12-01.md';
  w(rel, bigDailyNote(lines));
  return rel;
}

export interface LspEditRow {
  readonly label: string;
  /** Per edit: server CPU ms (user + system) from the didChange until recall sees the edit. */
  readonly cpuMs: number[];
  /** Per edit: wall ms from the didChange until recall sees the edit (quiet periods included). */
  readonly wallMs: number[];
  /** Server RSS after the last edit, MB. */
  readonly rssMb: number;
  /**
   * Server CPU ms per edit over the whole session after the first edit, quiet periods included,
   * until 2.5 s after the last edit (a save deferred to a pause, B47, is counted here).
   */
  readonly sessionCpuMs: number;
}

const TICK_MS = 1000 / 100; // USER_HZ on Linux

function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * TICK_MS;
}

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * One server session: open the note, make `edits` one-line edits (each a new word on a line spread
 * over the file), measure each until keyword recall finds the word there. `nodeArgs` go before the CLI (e.g. `--cpu-prof`).
 */
export async function oneSession(
  cli: string,
  label: string,
  lines: number,
  edits: number,
  nodeArgs: readonly string[] = [],
): Promise<LspEditRow> {
  const root = join(mkdtempSync(join(tmpdir(), 'gitmem-lsp-edit-')), 'ws');
  const rel = bigNoteWorkspace(root, lines);
  const text = readFileSync(join(root, rel), 'utf8');
  const { child, conn } = spawnLsp(cli, root, { GITMEM_MODEL_DIR: join(root, 'no-model') }, nodeArgs);
  const uri = pathToFileURL(join(root, rel)).href;
  const readyP = new Promise<void>((r) => conn.onNotification('gitmem/ready', () => r()));
  conn.onNotification('gitmem/status', () => undefined);
  conn.onNotification('textDocument/publishDiagnostics', () => undefined);
  conn.onNotification('window/logMessage', () => undefined);
  conn.onRequest('client/registerCapability', () => null);
  conn.listen();
  try {
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      capabilities: {
        workspace: { didChangeWatchedFiles: { dynamicRegistration: true } },
        textDocument: { publishDiagnostics: { versionSupport: true } },
      },
    });
    await conn.sendNotification('initialized', {});
    await readyP;
    await conn.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text },
    });
    await conn.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
    const cpuMs: number[] = [];
    const wallMs: number[] = [];
    let afterFirst = 0;
    const lineCount = text.split('\n').length - 1;
    for (let e = 0; e < edits; e++) {
      const version = e + 2;
      const line = 5 + Math.floor((((e * 7919) % 997) * (lineCount - 10)) / 997);
      const marker = `bignote${e.toString(36)}edit`;
      const c0 = cpuOf(child.pid!);
      const t0 = performance.now();
      // One line edited in place: the word goes at the start of the line (no line is added).
      await conn.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: `${marker} ` }],
      });
      for (;;) {
        const res = (await conn.sendRequest('gitmem/recall', { query: marker, mode: 'keyword' })) as {
          results?: { path: string; startLine: number }[];
        };
        if (res.results?.some((h) => h.startLine <= line + 1)) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      wallMs.push(performance.now() - t0);
      cpuMs.push(cpuOf(child.pid!) - c0);
      if (e === 0) afterFirst = cpuOf(child.pid!);
    }
    const rssMb = rssOf(child.pid!);
    await new Promise((r) => setTimeout(r, 2500));
    const sessionCpuMs = (cpuOf(child.pid!) - afterFirst) / Math.max(1, edits - 1);
    await conn.sendRequest('shutdown');
    await conn.sendNotification('exit');
    await new Promise<void>((r) => (child.exitCode !== null ? r() : child.on('exit', () => r())));
    return { label, cpuMs, wallMs, rssMb, sessionCpuMs };
  } finally {
    child.kill();
    rmSync(join(root, '..'), { recursive: true, force: true });
  }
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};

/** Rows: per build, median and max of server CPU and wall time per edit (first edit left out: warm-up). */
export function formatLspEdit(rows: readonly LspEditRow[], lines: number): string[] {
  const f = (x: number) => x.toFixed(0).padStart(6);
  const out = [
    `${`one-line edit in a ${lines.toLocaleString('en')}-line open note`.padEnd(44)} ${'CPU med'.padStart(7)} ${'max'.padStart(6)} ${'wall med'.padStart(8)} ${'max'.padStart(6)} ${'RSS MB'.padStart(7)} ${'session CPU/edit'.padStart(17)}`,
  ];
  for (const r of rows) {
    const cpu = r.cpuMs.slice(1);
    const wall = r.wallMs.slice(1);
    out.push(
      `${`${r.label} (${cpu.length} edits)`.padEnd(44)} ${f(median(cpu)).padStart(7)} ${f(Math.max(...cpu))} ${f(median(wall)).padStart(8)} ${f(Math.max(...wall))} ${r.rssMb.toFixed(0).padStart(7)} ${f(r.sessionCpuMs).padStart(17)}`,
    );
  }
  return out;
}

/**
 * `rounds` alternating sessions over `builds` (label → path of a cli.js).
 * @returns one row per session, in the order run.
 */
export async function measureLspEdit(
  builds: readonly { label: string; cli: string }[],
  options: { lines?: number; edits?: number; rounds?: number; nodeArgs?: readonly string[] } = {},
): Promise<LspEditRow[]> {
  const rows: LspEditRow[] = [];
  for (let round = 0; round < (options.rounds ?? 1); round++)
    for (const b of builds)
      rows.push(await oneSession(b.cli, b.label, options.lines ?? 60_000, options.edits ?? 8, options.nodeArgs));
  return rows;
}

/**
 * The builds `npm run bench -- --only lsp-edit` compares: `after` is dist/cli.cjs of `repo`; `before`
 * is the cli.js that GITMEM_BENCH_BEFORE names (an older build), when set.
 */
export function lspEditBuilds(repo: string): { label: string; cli: string }[] {
  const before = process.env.GITMEM_BENCH_BEFORE;
  return [
    ...(before ? [{ label: 'before', cli: before }] : []),
    { label: 'after', cli: join(repo, 'dist', 'cli.cjs') },
  ];
}

// Run directly: node lsp-edit.mjs <label=cli.js>... [--lines N] [--edits N] [--rounds N] [--prof DIR]
if (process.argv[1] && /lsp-edit\.m?js$/.test(process.argv[1])) {
  const args = process.argv.slice(2);
  const opt = (n: string) => (args.includes(n) ? args[args.indexOf(n) + 1] : undefined);
  const builds = args
    .filter((a, i) => a.includes('=') && !args[i - 1]?.startsWith('--'))
    .map((a) => ({ label: a.slice(0, a.indexOf('=')), cli: a.slice(a.indexOf('=') + 1) }));
  const lines = Number(opt('--lines') ?? 60_000);
  const prof = opt('--prof');
  const rows = await measureLspEdit(builds, {
    lines,
    edits: Number(opt('--edits') ?? 8),
    rounds: Number(opt('--rounds') ?? 1),
    ...(prof ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${prof}`] } : {}),
  });
  for (const l of formatLspEdit(rows, lines)) console.log(l);
  for (const r of rows)
    console.log(
      `${r.label}: cpu ${r.cpuMs.map((x) => x.toFixed(0)).join(' ')}; wall ${r.wallMs.map((x) => x.toFixed(0)).join(' ')}`,
    );
}
