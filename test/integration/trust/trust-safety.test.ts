// Issue 41, items 4 and 5, through the CLI and MCP (the SDK client over real stdio): a MEMORY.md
// that holds an injected "system note", a Stripe live key and a private key block. `hook prompt`,
// recall, `get`, MCP `memory_recall` and `memory_get` show the note labelled as a suspected
// instruction (never as a plain line) and the secrets masked; validate reports the note; no file of
// the derived state (.gitmem/: chunk records, keyword segments, audit log) holds a secret; only
// the CLI's --reveal reads the text as written. (The language server's side: test/lsp/trust-safety.test.ts.)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noModelEnv, requireBuiltCli, runCli } from '../../support/fixtures.js';
import { startMcp, type McpSession } from '../../support/mcp.js';
import {
  derivedFilesWithSecrets,
  INJECTED,
  KEY_BODY,
  LABEL,
  secretsIn,
  STRIPE_KEY,
  STRIPE_MASKED,
  trustWorkspace,
  unlabelled,
} from '../../support/trust-workspace.js';

const PROMPT = 'billing deploy pipeline key';
const made: string[] = [];
beforeAll(() => requireBuiltCli());
afterAll(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('injected instructions and secrets in memory, through the CLI', () => {
  let ws = '';
  let env: Record<string, string> = {};
  beforeAll(() => {
    const t = trustWorkspace();
    made.push(t.base);
    ws = t.ws;
    env = noModelEnv(ws);
  });

  it('hook prompt withholds the injected note (one line says so) and masks both secrets', () => {
    const r = runCli(['hook', 'prompt', '--dir', ws, '--prompt', PROMPT, '--budget', '1200'], { env });
    expect(r.code, r.stderr).toBe(0);
    // recall.inject.injection is false by default: the flagged line never enters an injected block.
    expect(r.stdout).not.toContain(INJECTED);
    expect(r.stdout).toContain('1 line flagged as instructions withheld: gitmem validate');
    expect(unlabelled(r.stdout)).toEqual([]);
    expect(r.stdout).toContain(`5: Stripe billing key for the deploy pipeline: ${STRIPE_MASKED}`);
    expect(r.stdout).toContain('[redacted: private key]');
    expect(secretsIn(r.stdout)).toEqual([]);
  });

  it('recall masks the secrets and labels the note; --reveal reads the file as written', () => {
    const r = runCli(['recall', 'billing', 'key', '--dir', ws, '--mode', 'keyword', '--json', '--context', '8'], {
      env,
    });
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    const hit = res.results.find((h: any) => h.path === 'memory/MEMORY.md');
    expect(hit.injection).toEqual([
      { line: 4, column: 26, kind: 'instruction', reason: 'asks to ignore earlier instructions' },
    ]);
    expect(hit.snippet).toContain(`${LABEL} ${INJECTED}`);
    expect(unlabelled(hit.contextSpan.text)).toEqual([]);
    expect(secretsIn(r.stdout)).toEqual([]);
    expect(r.stdout).toContain(STRIPE_MASKED);
    const shown = runCli(['recall', 'billing', 'key', '--dir', ws, '--mode', 'keyword', '--json', '--reveal'], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json().results.find((h: any) => h.path === 'memory/MEMORY.md').snippet).toContain(STRIPE_KEY);
  });

  it('get masks the secrets line for line (a key block keeps its line count); --reveal shows them', () => {
    const r = runCli(['get', 'memory/MEMORY.md', '--dir', ws, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const got = r.json();
    expect(secretsIn(got.text)).toEqual([]);
    const lines = got.text.split('\n');
    expect(lines).toHaveLength(13);
    expect(lines[3]).toBe(`- ${LABEL} ${INJECTED}`);
    // BEGIN line, two body lines, END line: one masked line each.
    expect(lines.slice(7, 13)).toEqual(['```', ...Array<string>(4).fill('[redacted: private key]'), '```']);
    const shown = runCli(['get', 'memory/MEMORY.md:5-12', '--dir', ws, '--json', '--reveal'], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(secretsIn(shown.json().text)).toEqual([STRIPE_KEY, ...KEY_BODY]);
  });

  it('validate reports the injected note as memory.injection.suspect', () => {
    const r = runCli(['validate', '--dir', ws, '--json'], { env });
    const found = JSON.stringify(r.json());
    expect(found).toContain('memory.injection.suspect');
    expect(r.json().diagnostics.find((d: any) => d.code === 'memory.injection.suspect')).toMatchObject({
      path: 'memory/MEMORY.md',
      range: { start: { line: 3 } },
    });
  });

  it('no file of the derived state holds a secret, the audit log included', () => {
    // A query that holds the key is audited masked (an agent-facing call: a person's recall is not audited).
    const r = runCli(['hook', 'prompt', '--prompt', STRIPE_KEY, '--dir', ws, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const audit = runCli(['audit', '--dir', ws, '--json'], { env });
    expect(audit.stdout).toContain(STRIPE_MASKED);
    expect(derivedFilesWithSecrets(join(ws, '.gitmem'))).toEqual([]);
  });
});

describe('injected instructions and secrets in memory, through MCP', () => {
  let ws = '';
  let mcp: McpSession | undefined;
  beforeAll(async () => {
    const t = trustWorkspace();
    made.push(t.base);
    ws = t.ws;
    mcp = await startMcp(ws, noModelEnv(ws));
  });
  afterAll(async () => {
    await mcp?.close();
  });

  it('memory_recall labels the note in results, withholds it from the budget block, and masks the secrets', async () => {
    const r = await mcp!.call('memory_recall', { query: PROMPT, mode: 'keyword', budget: 1200 });
    expect(r.isError, r.text).toBe(false);
    // A `budget` block is injected as it comes: the flagged line is held back and said in one line.
    expect(r.data.context.text).not.toContain(INJECTED);
    expect(r.data.context.text).toContain('1 line flagged as instructions withheld: gitmem validate');
    const asked = await mcp!.call('memory_recall', { query: PROMPT, mode: 'keyword' });
    expect(asked.data.results.find((h: any) => h.path === 'memory/MEMORY.md').snippet).toContain(
      `${LABEL} ${INJECTED}`,
    );
    expect(unlabelled(r.data.context.text)).toEqual([]);
    for (const h of r.data.results) expect(unlabelled(h.snippet)).toEqual([]);
    expect(r.data.results.some((h: any) => h.injection?.length)).toBe(true);
    expect(secretsIn(r.text)).toEqual([]);
    expect(secretsIn(JSON.stringify(r.data))).toEqual([]);
    expect(r.data.context.text).toContain(STRIPE_MASKED);
  });

  it('memory_get never reveals: the secrets masked, the note labelled', async () => {
    const r = await mcp!.call('memory_get', { id: 'memory/MEMORY.md' });
    expect(r.isError, r.text).toBe(false);
    expect(secretsIn(JSON.stringify(r.data))).toEqual([]);
    expect(secretsIn(r.text)).toEqual([]);
    expect(r.data.text).toContain(`- ${LABEL} ${INJECTED}`);
    expect(r.data.text).toContain(STRIPE_MASKED);
  });

  it('memory_validate reports the note, and the derived state holds no secret', async () => {
    const v = await mcp!.call('memory_validate', {});
    expect(JSON.stringify(v.data)).toContain('memory.injection.suspect');
    expect(derivedFilesWithSecrets(join(ws, '.gitmem'))).toEqual([]);
  });
});
