// The qmd backend against a fake `qmd` (a tiny node script in a temp bin folder on PATH): good JSON,
// garbage output, a hang (timeout), a non-zero exit — and with no qmd on PATH at all. Every failure
// falls back to the local search; results are mapped to memory files with bounded snippets.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_SNIPPET_CHARS,
  QmdMemoryBackend,
  findExecutable,
  getMemoryBackend,
  type QmdFallbackReason,
} from '../../../src/index.js';
import { copyFixture, tempDir } from '../../support/fixtures.js';

/** Write `bin/qmd` running `body` (JS) with node; it records its argv and cwd next to itself. */
function fakeQmd(body: string): string {
  const bin = join(tempDir('gitmem-qmd-'), 'bin');
  mkdirSync(bin, { recursive: true });
  const script = join(bin, 'qmd');
  writeFileSync(
    script,
    `#!${process.execPath}\nrequire('node:fs').writeFileSync(${JSON.stringify(join(bin, 'calls.json'))}, JSON.stringify({ argv: process.argv.slice(2), cwd: process.cwd() }));\n${body}\n`,
  );
  chmodSync(script, 0o755);
  // The extensionless script is CommonJS whatever package.json a parent folder holds.
  writeFileSync(join(bin, 'package.json'), '{ "type": "commonjs" }\n');
  return bin;
}

function backendWith(bin: string | undefined, extra: { timeoutMs?: number; collection?: string } = {}) {
  const fallbacks: { reason: QmdFallbackReason; detail: string }[] = [];
  const backend = new QmdMemoryBackend({
    env: { ...process.env, PATH: bin ?? join(tempDir(), 'empty-bin') },
    onFallback: (reason, detail) => fallbacks.push({ reason, detail }),
    ...extra,
  });
  return { backend, fallbacks };
}

const calls = (bin: string) =>
  JSON.parse(readFileSync(join(bin, 'calls.json'), 'utf8')) as { argv: string[]; cwd: string };

describe('qmd backend', () => {
  it('good JSON: qmd results mapped to memory files (qmd:// URIs, absolute paths), bounded, outsiders dropped', async () => {
    const root = copyFixture('fusion');
    const rows = [
      {
        docid: '#a1b2c3',
        score: 0.91,
        file: 'qmd://fusion-mem/2026-05-02.md',
        title: '2026-05-02',
        snippet: '@@ -3,1 @@ (2 before, 0 after)\n- The flaky e2e test was a race in the websocket reconnect.',
      },
      {
        docid: '#d4e5f6',
        score: 0.5,
        file: join(root, '.fusion/memory/MEMORY.md'),
        snippet: `- pnpm ${'long '.repeat(400)}`,
      },
      { docid: '#000001', score: 0.99, file: 'qmd://other/../../etc/passwd', snippet: 'root:x:0:0' },
      { docid: '#000002', score: 0.98, file: 'qmd://fusion-mem/README.md', snippet: 'not memory' },
      { docid: '#000003', score: 0.97, file: '/etc/hosts', snippet: 'localhost' },
      {
        docid: '#000004',
        score: 0.96,
        file: 'qmd://fusion-mem/2026-05-03.md',
        snippet: 'a file that no longer exists',
      },
      'not an object',
      { docid: '#000005', score: 0.95, file: 'qmd://fusion-mem/DREAMS.md', snippet: '   ' },
    ];
    const bin = fakeQmd(`process.stdout.write(${JSON.stringify(JSON.stringify(rows))});`);
    const { backend, fallbacks } = backendWith(bin, { collection: 'fusion-mem' });
    const res = await backend.search(root, { query: 'websocket reconnect', limit: 7 });
    expect(fallbacks).toEqual([]);
    expect(res.map((r) => [r.path, r.lineStart, r.lineEnd, r.score, r.backend])).toEqual([
      ['.fusion/memory/2026-05-02.md', 3, 3, 0.91, 'qmd'],
      ['.fusion/memory/MEMORY.md', 1, 1, 0.5, 'qmd'],
    ]);
    expect(res[0]!.snippet).toBe('- The flaky e2e test was a race in the websocket reconnect.');
    expect(res[1]!.snippet.length).toBeLessThanOrEqual(MAX_SNIPPET_CHARS);
    const call = calls(bin);
    expect(call.argv).toEqual(['search', '--json', '-n', '7', '-c', 'fusion-mem', 'websocket reconnect']);
    expect(call.cwd).toBe(root);
  });

  it('{ results: [...] } output and a query that starts with dashes (never passed as an option)', async () => {
    const root = copyFixture('default');
    const bin = fakeQmd(
      `process.stdout.write(JSON.stringify({ results: [{ path: 'memory/MEMORY.md', startLine: 5, endLine: 6, text: 'service layer', score: 2 }] }));`,
    );
    const { backend, fallbacks } = backendWith(bin);
    const res = await backend.search(root, { query: '--index=/tmp/x service layer' });
    expect(fallbacks).toEqual([]);
    expect(res).toEqual([
      { path: 'memory/MEMORY.md', lineStart: 5, lineEnd: 6, snippet: 'service layer', score: 2, backend: 'qmd' },
    ]);
    expect(calls(bin).argv.at(-1)).toBe('index=/tmp/x service layer');
  });

  it('garbage output falls back to the local search', async () => {
    const root = copyFixture('fusion');
    const bin = fakeQmd(`process.stdout.write('Searching… \\u001b[32m3 results\\u001b[0m\\n{not json');`);
    const { backend, fallbacks } = backendWith(bin);
    const res = await backend.search(root, { query: 'websocket reconnect race' });
    expect(fallbacks.map((f) => f.reason)).toEqual(['garbage']);
    expect(res[0]?.path).toBe('.fusion/memory/2026-05-02.md');
    expect(res[0]?.backend).toBe('qmd');
  });

  it('JSON of the wrong shape, and rows that map to no memory file, fall back too', async () => {
    const root = copyFixture('fusion');
    for (const out of ['{"hits": 3}', '42', '[{"file": "qmd://x/README.md", "snippet": "s"}]']) {
      const { backend, fallbacks } = backendWith(fakeQmd(`process.stdout.write(${JSON.stringify(out)});`));
      const res = await backend.search(root, { query: 'pnpm workspaces' });
      expect(
        fallbacks.map((f) => f.reason),
        out,
      ).toEqual(['garbage']);
      expect(res[0]?.path).toBe('.fusion/memory/MEMORY.md');
    }
    const empty = backendWith(fakeQmd(`process.stdout.write('[]');`));
    expect((await empty.backend.search(root, { query: 'pnpm workspaces' }))[0]?.path).toBe('.fusion/memory/MEMORY.md');
    expect(empty.fallbacks.map((f) => f.reason)).toEqual(['empty']);
  });

  it('a hanging qmd is killed at the timeout and the local search answers', async () => {
    const root = copyFixture('openclaw');
    const bin = fakeQmd(`setTimeout(() => process.stdout.write('[]'), 30000);`);
    const { backend, fallbacks } = backendWith(bin, { timeoutMs: 300 });
    const t0 = performance.now();
    const res = await backend.search(root, { query: 'webhook 429 token bucket' });
    expect(performance.now() - t0).toBeLessThan(5000);
    expect(fallbacks.map((f) => f.reason)).toEqual(['timeout']);
    expect(res[0]?.path).toBe('memory/2026-04-22-night-troubleshooting.md');
  });

  it('a non-zero exit falls back, with qmd stderr in the detail', async () => {
    const root = copyFixture('default');
    const bin = fakeQmd(`process.stderr.write('Collection not found: gitmem'); process.exit(3);`);
    const { backend, fallbacks } = backendWith(bin);
    const res = await backend.search(root, { query: 'vitest neovim' });
    expect(fallbacks.map((f) => f.reason)).toEqual(['exit']);
    expect(fallbacks[0]!.detail).toContain('Collection not found');
    expect(res[0]?.path).toBe('memory/MEMORY.md');
  });

  it('no qmd on PATH: local search, no process started', async () => {
    const root = copyFixture('fusion');
    const { backend, fallbacks } = backendWith(undefined);
    const res = await backend.search(root, { query: 'release branches tuesday' });
    expect(fallbacks.map((f) => f.reason)).toEqual(['missing']);
    expect(res.map((r) => [r.path, r.lineStart])).toEqual([['.fusion/memory/MEMORY.md', 4]]);
  });

  it('the registered qmd backend looks qmd up on process.env.PATH at each search', async () => {
    const root = copyFixture('fusion');
    const bin = fakeQmd(
      `process.stdout.write(JSON.stringify([{ file: 'qmd://m/DREAMS.md', snippet: 'from the fake qmd', score: 1 }]));`,
    );
    const saved = process.env.PATH;
    try {
      process.env.PATH = `${bin}:${saved ?? ''}`;
      expect(findExecutable('qmd')).toBe(join(bin, 'qmd'));
      const res = await getMemoryBackend('qmd')!.search!(root, { query: 'promote pnpm' });
      expect(res).toEqual([
        {
          path: '.fusion/memory/DREAMS.md',
          lineStart: 1,
          lineEnd: 1,
          snippet: 'from the fake qmd',
          score: 1,
          backend: 'qmd',
        },
      ]);
    } finally {
      process.env.PATH = saved;
    }
    expect(findExecutable('qmd', { PATH: join(tempDir(), 'nothing') })).toBeUndefined();
  });
});
