// R144 (docs/bad-inputs.md): a file named after a token, an entry id holding one, and a value an error
// message repeats were shown whole by `gitmem get` (its path, id and the note on an id two files
// hold), by `gitmem validate` and MCP `memory_validate` (each diagnostic's path), and by every error
// that repeats what the user gave (core/errors.ts shownValue: cut to 80 characters, never masked).
// Now masked as recall masks names; `get --reveal` (a person at a terminal) still shows them.
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { committedFixture, noModelEnv, requireBuiltCli, runCli, write } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

// Made-up values built at run time, so the source holds no key literal.
const GH = `ghp_${'a1B2c3D4e5'.repeat(3)}f6G7h8`;
const STRIPE = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
const SECRETS = [GH.slice(4), STRIPE.slice(8)];

function expectMasked(shown: string): void {
  for (const s of SECRETS) expect(shown).not.toContain(s);
}

let ws = '';
let mcp: McpSession;
const env = () => noModelEnv(ws);
beforeAll(async () => {
  requireBuiltCli();
  ws = committedFixture('demo');
  const entry = `---\nid: ${GH}\ntype: decision\ntags: [deploy]\n---\n\nRotate the deploy key monthly.\n`;
  write(ws, `memory/entries/${GH}.md`, entry);
  write(ws, `memory/entries/copy-${GH}.md`, entry);
  mcp = await startMcp(ws, env());
});
afterAll(async () => {
  await mcp?.close();
  rmSync(dirname(ws), { recursive: true, force: true });
});

describe('names and echoed values are shown masked (R144)', () => {
  it('get by an id holding a token: path, id and the two-files note masked; --reveal shows them', () => {
    const text = runCli(['get', GH, '--dir', ws], { env: env() });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout + text.stderr).toMatch(/\[redacted: GitHub token\]/);
    expect(text.stderr).toMatch(/is held by 2 files/);
    expectMasked(text.stdout + text.stderr);
    const json = runCli(['get', GH, '--dir', ws, '--json'], { env: env() });
    expect(json.code, json.stderr).toBe(0);
    expect(json.json().entry.id).toMatch(/^ghp_…\[redacted: GitHub token\]$/);
    expectMasked(json.stdout);
    const revealed = runCli(['get', GH, '--dir', ws, '--json', '--reveal'], { env: env() });
    expect(revealed.json().entry.id).toBe(GH);
  });

  it('validate and memory_validate show a diagnostic path holding a token masked', async () => {
    for (const args of [['validate'], ['validate', '--json']]) {
      const r = runCli([...args, '--dir', ws], { env: env() });
      expect(r.stdout).toMatch(/memory\/entries\/ghp_…\[redacted: GitHub token\]\.md/);
      expectMasked(r.stdout + r.stderr);
    }
    const r = await mcp.call('memory_validate', {});
    expect(r.text).toMatch(/redacted: GitHub token/);
    expectMasked(r.text);
  });

  it('an error repeating a value the user gave masks the credential in it', async () => {
    for (const args of [
      ['get', STRIPE],
      ['get', `${STRIPE}.md:1-2`],
      ['get', `memory/entries/${GH}.md:x`],
    ]) {
      const r = runCli([...args, '--dir', ws, '--json'], { env: env() });
      expect(r.code, r.stdout).not.toBe(0);
      expectMasked(r.stdout + r.stderr);
    }
    const r = await mcp.call('memory_get', { ref: STRIPE });
    expect(r.isError).toBe(true);
    expectMasked(r.text);
  });
});
