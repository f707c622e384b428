// Real-client LSP test: headless Neovim 0.7 (Debian) drives `gitmem lsp --stdio` (the built CLI) over
// real stdio. The Lua side (test/nvim/lsp_check.lua) only collects; every assertion is here.
// Needs `nvim` (npm test installs it) and `npm run build`; fails with a clear message otherwise.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CLI, copyFixture, REPO } from '../support/fixtures.js';

const NVIM = process.env.NVIM_BIN ?? 'nvim';

interface NvimRun {
  code: number | null;
  signal: string | null;
  ms: number;
  t0: number;
  output: string;
  lspLog: string;
  report: any;
}

function runNeovim(file: string, root: string, { killAfterMs = 40_000, waitMs = 15_000 } = {}): Promise<NvimRun> {
  const tmp = mkdtempSync(join(tmpdir(), 'nvim-lsp-'));
  const out = join(tmp, 'report.json');
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(tmp, 'config'),
    XDG_DATA_HOME: join(tmp, 'data'),
    XDG_CACHE_HOME: join(tmp, 'cache'),
    XDG_STATE_HOME: join(tmp, 'state'),
    // No embedding model: keyword recall, so the run does not depend on the model install.
    GITMEM_MODEL_DIR: join(tmp, 'no-model'),
    LSP_CHECK_CMD: JSON.stringify([process.execPath, CLI, 'lsp', '--stdio']),
    LSP_CHECK_FILE: file,
    LSP_CHECK_ROOT: root,
    LSP_CHECK_OUT: out,
    LSP_CHECK_TIMEOUT_MS: String(waitMs),
  };
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(NVIM, ['--headless', '--clean', '-n', '-c', 'luafile test/nvim/lsp_check.lua'], {
      cwd: REPO,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group: the timeout kills nvim and the server it started
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, killAfterMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const read = (p: string) => {
        try {
          return readFileSync(p, 'utf8');
        } catch {
          return '';
        }
      };
      const raw = read(out);
      const lspLog = read(join(tmp, 'cache', 'nvim', 'lsp.log'));
      rmSync(tmp, { recursive: true, force: true });
      resolve({ code, signal, ms: Date.now() - t0, t0, output, lspLog, report: raw ? JSON.parse(raw) : null });
    });
  });
}

const FIXTURE = [
  '---',
  'id: broken-note',
  'type: decison',
  'tags: [search]',
  '---',
  '',
  '- 🚀 see [[no-such-entry]] and [[use-lunr]]',
  '',
].join('\n');

it('Neovim 0.7 over stdio: diagnostics (UTF-16 after an emoji), hover on an entry id, type completion, gitmem/recall, didChange', async () => {
  expect(spawnSync(NVIM, ['--version']).status, 'nvim missing: apt-get install -y neovim (npm test installs it)').toBe(
    0,
  );
  expect(existsSync(CLI), 'dist/cli.cjs missing: run npm run build').toBe(true);
  const root = copyFixture('default');
  const file = join(root, 'memory', 'entries', 'broken.md');
  writeFileSync(file, FIXTURE);
  const r = await runNeovim(file, root);
  const why = `nvim exit=${r.code} signal=${r.signal}\nerror: ${r.report?.error}\nnvim output:\n${r.output}\nlsp.log:\n${r.lspLog}\nserver log:\n${(r.report?.log ?? []).join('\n')}`;
  expect(r.code, why).toBe(0);
  const rep = r.report;
  console.log(
    `nvim: first diagnostics ${rep.t.first_publish - r.t0} ms, gitmem/ready ${rep.t.ready - r.t0} ms, whole session ${r.ms} ms`,
  );

  expect(rep.filetype).toBe('markdown');
  expect(rep.offset_encoding).toBe('utf-16');
  expect(rep.ready).toMatchObject({ files: 7 });
  expect(rep.statuses[rep.statuses.length - 1]).toBe('ready');

  // Neovim's own view holds BYTE columns; the wire holds UTF-16 columns.
  const pick = ({ lnum, col, end_col, code }: any) => ({ lnum, col, end_col, code });
  expect(rep.diagnostics.map(pick), why).toEqual([
    { lnum: 2, col: 0, end_col: 4, code: 'memory.schema.invalid-value' },
    { lnum: 6, col: 11, end_col: 28, code: 'memory.link.unresolved' }, // '- 🚀 see ' is 11 bytes
  ]);
  const sent = rep.publish.flatMap((p: any) => p.diagnostics).find((d: any) => d.code === 'memory.link.unresolved');
  expect(sent.range).toEqual({ start: { line: 6, character: 9 }, end: { line: 6, character: 26 } }); // 9 UTF-16 units

  // Hover: cursor at byte 36 ('u' of use-lunr) is UTF-16 34; the server previews the entry.
  expect(rep.hover.sent).toEqual({ line: 6, character: rep.hover.byte_col - 2 });
  expect(rep.hover.result.contents.kind).toBe('markdown');
  expect(rep.hover.result.contents.value).toContain('**Use lunr for keyword recall**');
  expect(rep.hover.result.contents.value).toContain('type `decision`');
  expect(rep.hover.result.range.start).toEqual({ line: 6, character: 31 });

  const items = Array.isArray(rep.completion.result) ? rep.completion.result : rep.completion.result.items;
  expect(items[0].label).toBe('decision');
  expect(items.map((i: any) => i.label)).toEqual(
    expect.arrayContaining(['error_fix', 'decision', 'learning', 'preference']),
  );

  expect(rep.recall.query).toBe('lunr keyword recall');
  expect(rep.recall.results[0]).toMatchObject({ path: 'memory/entries/use-lunr.md', entry: { id: 'use-lunr' } });

  // After fixing the type through an incremental UTF-16 edit, only the broken link remains.
  expect(rep.after_edit.diagnostics).toEqual([{ lnum: 6, col: 11, code: 'memory.link.unresolved' }]);
  expect(rep.server_exit).toEqual({ code: 0, signal: 0 });
}, 60_000);
