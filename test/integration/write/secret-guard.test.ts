// Bad input T05 (docs/bad-inputs.md): a credential given to any write path (remember, append,
// state set, complete-task, checkpoint messages, MCP; U47: a name given to mv) is refused before anything touches the disk,
// and neither the file name, the id nor the error message carries it.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, git, runCli, gitFixture, requireBuiltCli } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';
import { refuseSecretsInWrite, secretsInWrite } from '../../../src/core/secrets.js';

// A made-up token in the GitHub format (built at run time so the source holds no token literal).
const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(dirname(d), { recursive: true, force: true });
});
beforeAll(() => {
  requireBuiltCli();
});

function workspace(): string {
  const ws = copyFixture('demo');
  made.push(ws);
  git(ws, 'init', '-q');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'initial');
  return ws;
}

/** Every file under `ws` except .git, with its content. */
function snapshot(ws: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p, readFileSync(p, 'utf8'));
    }
  };
  walk(ws);
  return out;
}

function expectRefused(r: { code: number; stdout: string; stderr: string }) {
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/possible secret/);
  expect(r.stderr + r.stdout).not.toContain(TOKEN);
  expect((r.stderr + r.stdout).toLowerCase()).not.toContain(TOKEN.toLowerCase().replace('_', '-'));
}

describe('the secret guard on every write path', () => {
  it('remember refuses a token before deriving a file name or id from it', () => {
    const ws = workspace();
    const before = snapshot(ws);
    const r = runCli(['remember', `Deploy token ${TOKEN}`, '--dir', ws, '--json']);
    expectRefused(r);
    expect(JSON.parse(r.stdout).error.code).toBe('secret.found');
    expect(snapshot(ws)).toEqual(before);
    // The same for a token only in a tag or the title.
    expectRefused(runCli(['remember', 'Deploy with the CI token', '--tag', TOKEN, '--dir', ws]));
    expectRefused(runCli(['remember', 'Deploy with the CI token', '--title', TOKEN, '--dir', ws]));
    expect(snapshot(ws)).toEqual(before);
  });

  it('append, state set and complete-task refuse it too, leaving every file as it was', () => {
    const ws = workspace();
    const before = snapshot(ws);
    expectRefused(runCli(['append', `rotated the token ${TOKEN}`, '--dir', ws]));
    expectRefused(runCli(['state', 'set', '--step', `export GITHUB_TOKEN=${TOKEN}`, '--dir', ws]));
    const task = JSON.stringify({
      goal: 'Rotate the deploy token',
      result: `New token is ${TOKEN}`,
      tool_usage: [],
      feedback: '',
    });
    expectRefused(runCli(['complete-task', '--dir', ws], { input: task }));
    expect(snapshot(ws)).toEqual(before);
  });

  // U47: mv renamed a file to a name holding the token (the write guard scans names only on writes).
  it('U47: mv to a file or folder name holding a token is refused before anything moves', () => {
    const ws = workspace();
    const before = snapshot(ws);
    expectRefused(
      runCli(['mv', 'memory/entries/2026-11-25-prefer-small-prs.md', `memory/entries/${TOKEN}.md`, '--dir', ws]),
    );
    const intoFolder = runCli([
      'mv',
      'memory/entries/2026-11-25-prefer-small-prs.md',
      `memory/entries/old-${TOKEN}/small-prs.md`,
      '--dir',
      ws,
      '--json',
    ]);
    expectRefused(intoFolder);
    expect(JSON.parse(intoFolder.stdout).error.code).toBe('secret.found');
    expect(snapshot(ws)).toEqual(before);
    // The same move without the token goes through.
    const ok = runCli([
      'mv',
      'memory/entries/2026-11-25-prefer-small-prs.md',
      'memory/entries/small-prs.md',
      '--dir',
      ws,
    ]);
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('a checkpoint message or reason holding a token is refused (trailers are scanned)', () => {
    const ws = workspace();
    runCli(['remember', 'Deploys go out on Tuesdays', '--dir', ws]);
    const head = git(ws, 'rev-parse', 'HEAD');
    const r = runCli(['checkpoint', '--reason', `token ${TOKEN}`, '--dir', ws]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/commit message/);
    expect(git(ws, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('append refuses the token formats of U33 (GitLab, Hugging Face, JWT, Bearer, Azure key)', () => {
    const ws = workspace();
    const before = snapshot(ws);
    // Made-up values in each format, built at run time.
    const tokens = [
      `glpat-${'Ab3dEf6hIj'.repeat(2)}`,
      `hf_${'Ab3dEf6hIjKlMnOpQr'.repeat(2)}`,
      `eyJ${'hbGciOiJIUzI1'}.eyJ${'zdWIiOiIxMjM0'}.${'dozjgNryP4J3jVmN'}`,
      `Authorization: Bearer ${'8f3kd93KD0a9d8fj'}${'J2kd9s8dfj3kdKd'}`,
      `AccountName=acme;AccountKey=${'Ab3dEf6hIj9kLm2n'.repeat(4)}==`,
    ];
    for (const t of tokens) {
      const r = runCli(['append', `called the API with ${t}`, '--dir', ws]);
      expect(r.code, t).toBe(1);
      expect(r.stderr, t).toMatch(/possible secret/);
    }
    expect(snapshot(ws)).toEqual(before);
  });

  it('editing a file that already held an allowed fake key is not blocked by that old line', () => {
    const prev = `# Memory\n\n- fake key ${TOKEN} gitmem:allow-secret\n`;
    expect(() => refuseSecretsInWrite('memory/MEMORY.md', `${prev}- a new fact\n`, prev)).not.toThrow();
    expect(secretsInWrite('memory/MEMORY.md', `${prev}- token ${TOKEN}\n`, prev).map((f) => f.line)).toEqual([4]);
    expect(secretsInWrite(`memory/entries/${TOKEN}.md`, 'plain text').map((f) => f.line)).toEqual([0]);
  });
});

describe('the secret guard over MCP', () => {
  let mcp: McpSession;
  let ws: string;
  beforeAll(async () => {
    ws = gitFixture('demo');
    mcp = await startMcp(ws);
  });
  afterAll(async () => {
    await mcp?.close();
    rmSync(dirname(ws), { recursive: true, force: true });
  });

  it('memory_remember and memory_state refuse a token with secret.found and write nothing', async () => {
    const before = snapshot(ws);
    const r = await mcp.call('memory_remember', { text: `Deploy token ${TOKEN}` });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/secret\.found|possible secret/);
    expect(r.text).not.toContain(TOKEN);
    const s = await mcp.call('memory_state', { action: 'set', step: `export GITHUB_TOKEN=${TOKEN}` });
    expect(s.isError).toBe(true);
    expect(snapshot(ws)).toEqual(before);
  });
});
