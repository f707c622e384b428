// R141 (docs/bad-inputs.md): a credential wrapped across a line end (`ghp_` ending one line, the rest
// starting the next; a JWT, Stripe key or AWS key id wrapped by an editor or a paste) matched no
// pattern on either line, so every write path wrote it and `gitmem validate` and checkpoint passed it.
// Every write path (CLI remember, append, state set, complete-task (ACE); MCP memory_remember,
// memory_observe; the language server's gitmem/remember; Claude's memory tool) now refuses it with
// `secret.found`, nothing written; validate reports it with the value masked, and checkpoint refuses it.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryToolBackend, MemoryToolError } from '../../../src/index.js';
import { CLI, committedFixture, git, noModelEnv, requireBuiltCli, runCli } from '../../support/fixtures.js';
import { initializeSpawned, spawnServer } from '../../support/lsp.js';
import { startMcp, type McpSession } from '../../support/mcp.js';

// Made-up values built at run time, so the source holds no key literal. Each: [text, its secret part].
const GH_REST = 'a1B2c3D4e5'.repeat(3) + 'f6G7h8';
const JWT_SIG = 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
const WRAPPED: readonly (readonly [string, string])[] = [
  [`The deploy token is ghp_\n${GH_REST} for CI`, GH_REST],
  [`Auth: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.\n${JWT_SIG}`, JWT_SIG],
  [`Stripe live key sk_live_4eC39HqL\nyjWDarjtT1zdp7dc in the vault`, 'yjWDarjtT1zdp7dc'],
  [`AWS key id AKIA\n${'Z7QW3RT5YU8OP2LK'} for the deploy user`, 'Z7QW3RT5YU8OP2LK'],
];

beforeAll(() => requireBuiltCli());

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

function expectRefused(text: string, secret: string): void {
  expect(text).toContain('possible secret');
  expect(text).not.toContain(secret);
}

describe('CLI write paths refuse a credential wrapped across a line end (R141)', () => {
  let ws = '';
  const env = () => noModelEnv(ws);
  beforeAll(() => {
    ws = committedFixture('demo');
  });
  afterAll(() => rmSync(dirname(ws), { recursive: true, force: true }));

  it.each(WRAPPED)('remember, append, state set and complete-task refuse %j', (text, secret) => {
    const before = snapshot(ws);
    const runs = [
      runCli(['remember', text, '--type', 'decision', '--dir', ws, '--json'], { env: env() }),
      runCli(['append', text, '--dir', ws, '--json'], { env: env() }),
      runCli(['state', 'set', '--step', text, '--dir', ws, '--json'], { env: env() }),
      runCli(['complete-task', '--dir', ws, '--json'], {
        env: env(),
        input: JSON.stringify({ goal: 'Rotate the deploy key', result: text, tool_usage: [], feedback: '' }),
      }),
    ];
    for (const r of runs) {
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.json().error.code, r.stdout).toBe('secret.found');
      expectRefused(r.stdout + r.stderr, secret);
    }
    expect(snapshot(ws)).toEqual(before);
  });

  it('validate reports a wrapped token written by hand, masked; checkpoint refuses it', () => {
    const note = join(ws, 'memory', '2026-11-24.md');
    const before = readFileSync(note, 'utf8');
    writeFileSync(note, `${before}- ${WRAPPED[0]![0]}\n`);
    const v = runCli(['validate', '--dir', ws, '--json'], { env: env() });
    expect(v.code, v.stdout).toBe(1);
    const found = (v.json().diagnostics as { code: string; path: string; message: string; range: any }[]).filter(
      (d) => d.code === 'memory.secret.suspected',
    );
    expect(found).toHaveLength(1);
    expect(found[0]!.path).toBe('memory/2026-11-24.md');
    expect(found[0]!.range.start.line).toBe(before.split('\n').length - 1);
    expect(found[0]!.message).toMatch(/github-token/);
    expect(v.stdout).not.toContain(GH_REST.slice(0, 8));
    const text = runCli(['validate', '--dir', ws], { env: env() });
    expect(text.stdout + text.stderr).toMatch(/memory\.secret\.suspected/);
    expect(text.stdout + text.stderr).not.toContain(GH_REST.slice(0, 8));
    const c = runCli(['checkpoint', '--dir', ws, '--json'], { env: env() });
    expect(c.code, c.stdout + c.stderr).not.toBe(0);
    expect(c.json().error.code).toBe('git.secrets-found');
    expect(c.stdout + c.stderr).not.toContain(GH_REST.slice(0, 8));
    writeFileSync(note, before);
    expect(git(ws, 'status', '--porcelain')).toBe('');
  });

  it("a person's marked wrapped line is not reported by validate", () => {
    const note = join(ws, 'memory', '2026-11-24.md');
    const before = readFileSync(note, 'utf8');
    writeFileSync(note, `${before}- docs example ghp_ <!-- gitmem:allow-secret -->\n${GH_REST}\n`);
    const v = runCli(['validate', '--dir', ws, '--json'], { env: env() });
    expect(v.stdout).not.toContain('memory.secret.suspected');
    writeFileSync(note, before);
  });
});

describe('MCP, language-server and memory-tool write paths (R141)', () => {
  let ws = '';
  let mcp: McpSession;
  beforeAll(async () => {
    ws = committedFixture('demo');
    mcp = await startMcp(ws, noModelEnv(ws));
  });
  afterAll(async () => {
    await mcp?.close();
    rmSync(dirname(ws), { recursive: true, force: true });
  });

  it('memory_remember and memory_observe refuse each wrapped credential', async () => {
    const before = snapshot(ws);
    for (const [text, secret] of WRAPPED) {
      for (const r of [
        await mcp.call('memory_remember', { text, type: 'decision' }),
        await mcp.call('memory_observe', { text }),
      ]) {
        expect(r.isError, r.text).toBe(true);
        expect(r.text).toContain('secret.found');
        expectRefused(r.text, secret);
      }
    }
    expect(snapshot(ws)).toEqual(before);
  });

  it('gitmem/remember over the language server refuses each wrapped credential', async () => {
    const s = spawnServer([process.execPath, CLI, 'lsp', '--stdio'], { cwd: ws, env: noModelEnv(ws) });
    try {
      await initializeSpawned(s, ws);
      await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready');
      const before = snapshot(ws);
      for (const [text, secret] of WRAPPED) {
        const err = await s.client.sendRequest('gitmem/remember', { text }).then(
          () => undefined,
          (e: Error) => e,
        );
        expect(err, text).toBeInstanceOf(Error);
        expect(err!.message).toMatch(/possible secret/);
        expect(err!.message).not.toContain(secret);
      }
      expect(snapshot(ws)).toEqual(before);
    } finally {
      s.kill();
    }
  });

  it("Claude's memory tool create refuses each wrapped credential", async () => {
    const tool = await createMemoryToolBackend(ws, { modelDir: join(dirname(ws), 'no-model') });
    try {
      const before = snapshot(ws);
      for (const [text] of WRAPPED) {
        const e = await tool
          .handle({ command: 'create', path: '/memories/ci.md', file_text: `# CI\n\n${text}\n` })
          .then(
            (out) => new Error(`expected a refusal, got: ${out}`),
            (err: unknown) => err,
          );
        expect(e).toBeInstanceOf(MemoryToolError);
        expect((e as MemoryToolError).code).toBe('secret.found');
      }
      expect(snapshot(ws)).toEqual(before);
    } finally {
      await tool.dispose();
    }
  });
});
