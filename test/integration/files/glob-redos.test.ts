// U48: a glob made to backtrack (`**/**/…/*a*a*a…b`) against a long path name. picomatch's RegExp
// took minutes for such a `--file` filter, and a RegExp cannot be interrupted, so the CLI ignored
// SIGTERM and one MCP call froze the server for every call after it. The matcher in
// core/glob-match.ts answers in time bounded by pattern × path. Real CLI and real MCP stdio; before
// the change each of these calls hung past the test timeout.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, runCli } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

const LONG_PATH = `${'a/'.repeat(40)}${'a'.repeat(60)}.ts`;
const EVIL = `${'**/'.repeat(20)}${'*a'.repeat(25)}b`;

let root: string;
let mcp: McpSession | undefined;

beforeAll(async () => {
  root = copyFixture('demo');
  writeFileSync(
    join(root, 'memory', 'entries', '2026-11-30-deep-file-xylophone.md'),
    [
      '---',
      'id: 2026-11-30-deep-file-xylophone',
      'type: fact',
      'title: The xylophone module sits deep in the tree',
      'files:',
      `  - { path: ${LONG_PATH}, relation: modified }`,
      'created: 2026-11-30T10:00:00Z',
      'status: active',
      '---',
      '',
      'The xylophone module sits deep in the tree.',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(root, 'gitmem.config.json'),
    JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } }),
  );
  mcp = await startMcp(root);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
});

describe('U48 a glob that would backtrack for minutes', () => {
  it('recall --file answers at once: the evil glob matches nothing, a plain one still finds the entry', () => {
    const evil = runCli(['recall', 'xylophone', '--dir', root, '--mode', 'keyword', '--json', '--file', EVIL]);
    expect(evil.code, evil.stderr).toBe(0);
    expect(evil.json().results).toEqual([]);
    const plain = runCli(['recall', 'xylophone', '--dir', root, '--mode', 'keyword', '--json', '--file', '**/*a*a.ts']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.json().results.map((r: { path: string }) => r.path)).toContain(
      'memory/entries/2026-11-30-deep-file-xylophone.md',
    );
  }, 60_000);

  it('memory_recall with the glob answers and the server keeps serving', async () => {
    const r = await mcp!.call('memory_recall', { query: 'xylophone', file: EVIL });
    expect(r.isError, r.text).toBe(false);
    expect(r.data.results).toEqual([]);
    expect((await mcp!.call('memory_stats')).isError).toBe(false);
  }, 60_000);

  it('an extglob is a usage error before any index work; in gitmem.config.json it is config.invalid', () => {
    const ext = runCli(['recall', 'xylophone', '--dir', root, '--json', '--file', '@(a|b).ts']);
    expect(ext.code).toBe(2);
    expect(JSON.parse(ext.stdout || ext.stderr).error?.code ?? ext.stderr).toMatch(/usage/);
    const ws = copyFixture('demo');
    writeFileSync(
      join(ws, 'gitmem.config.json'),
      JSON.stringify({ version: 1, layout: 'default', ignore: ['+(x).md'] }),
    );
    const cfg = runCli(['validate', '--dir', ws]);
    expect(cfg.code).not.toBe(0);
    expect(cfg.stderr).toMatch(/ignore: glob "\+\(x\)\.md" uses an extglob/);
  }, 60_000);
});
