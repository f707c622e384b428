// Bad input R45 (docs/bad-inputs.md): a secret in a file name or a tag was shown as written by
// `recall --json`, the block's label line (`hook prompt`, `recall --budget`), MCP memory_recall and
// `gitmem tags`; chunk text was masked, names were not. Names are now masked wherever results are
// shown (service/trust/shown-names.ts, core/secret-mask.ts maskName); `recall --reveal` (a person at
// a terminal) still shows them as written.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { committedFixture, git, noModelEnv, okOutput, requireBuiltCli, runCli } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

// Made-up values built at run time, so the source holds no key literal.
const KEY = `AKIA${'Z6QW3RT5YU8OP2LK'}`;
const TOKEN = `ghp_${'a1b2c3d4e5'.repeat(4)}`; // tags are read in lower case
const MASKED_PATH = 'memory/topics/AKIA…[redacted: AWS access key].md';
const MASKED_TAG = 'ghp_…[redacted: GitHub token]';

let ws = '';
let mcp: McpSession;
const env = () => noModelEnv(ws);

beforeAll(async () => {
  requireBuiltCli();
  ws = committedFixture('demo');
  // Written by hand, as the tester did: a note named after a key, an entry tagged with a token.
  mkdirSync(join(ws, 'memory', 'topics'), { recursive: true });
  writeFileSync(join(ws, 'memory', 'topics', `${KEY}.md`), '# Topic\n\nThe walrus migration runs on Fridays.\n');
  writeFileSync(
    join(ws, 'memory', 'entries', '2026-11-26-walrus-tags.md'),
    `---\nid: 2026-11-26-walrus-tags\ntype: decision\ntags: [walrus, ${TOKEN}]\ncreated: 2026-11-26\n---\n\nThe walrus cache is flushed nightly.\n`,
  );
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'hand-written walrus notes');
  mcp = await startMcp(ws, env());
});
afterAll(async () => {
  await mcp?.close();
  rmSync(dirname(ws), { recursive: true, force: true });
});

/** Neither secret appears, in any case. */
function expectNoSecret(text: string): void {
  expect(text).not.toContain(KEY);
  expect(text.toLowerCase()).not.toContain(KEY.toLowerCase());
  expect(text.toLowerCase()).not.toContain(TOKEN);
}

describe('R45: secrets in file names and tags are masked where results are shown', () => {
  it('recall --json masks the path and the tag', () => {
    const r = runCli(['recall', 'walrus', '--json', '--dir', ws], { env: env() });
    const out = okOutput(r);
    expectNoSecret(r.stdout);
    const paths = out.results.map((x: { path: string }) => x.path);
    expect(paths).toContain(MASKED_PATH);
    const tagged = out.results.find((x: { entry?: { id: string } }) => x.entry?.id === '2026-11-26-walrus-tags');
    expect(tagged.entry.tags).toEqual(['walrus', MASKED_TAG]);
  });

  it("the injected block's label line (hook prompt, recall --budget) shows the masked path", () => {
    for (const args of [
      ['hook', 'prompt', '--prompt', 'walrus migration'],
      ['recall', 'walrus migration', '--budget', '1200'],
    ]) {
      const r = runCli([...args, '--dir', ws], { env: env() });
      expect(r.code, r.stderr).toBe(0);
      expectNoSecret(r.stdout);
      expect(r.stdout).toContain(`- ${MASKED_PATH}`);
    }
  });

  it('MCP memory_recall masks them, with and without a budget', async () => {
    for (const args of [{ query: 'walrus' }, { query: 'walrus migration', budget: 1200 }]) {
      const r = await mcp.call('memory_recall', args);
      expect(r.isError, r.text).toBe(false);
      expectNoSecret(JSON.stringify(r.data) + r.text);
      expect(JSON.stringify(r.data)).toContain('AKIA…[redacted: AWS access key]');
    }
  });

  it('gitmem tags masks a tag holding a token, as text and --json', () => {
    const text = runCli(['tags', '--dir', ws], { env: env() });
    expect(text.code, text.stderr).toBe(0);
    expectNoSecret(text.stdout);
    expect(text.stdout).toContain(MASKED_TAG);
    const json = runCli(['tags', '--json', '--dir', ws], { env: env() });
    expectNoSecret(json.stdout);
    const names = okOutput(json).tags.map((t: { name: string }) => t.name);
    expect(names).toContain(MASKED_TAG);
  });

  it('recall --reveal, a person at the terminal, shows the name as written', () => {
    const r = runCli(['recall', 'walrus migration', '--reveal', '--json', '--dir', ws], { env: env() });
    const out = okOutput(r);
    const hit = out.results.find((x: { path: string }) => x.path.includes('topics/'));
    expect(hit.path).toBe(`memory/topics/${KEY}.md`);
    expect(hit.snippet).toContain('walrus migration');
  });
});
