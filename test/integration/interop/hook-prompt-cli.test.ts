// `gitmem hook prompt`, the prompt-submit hook, as a real process on a copied chat workspace: it
// reads the agent's hook JSON from stdin, recalls through the one context-block packer (the same
// block as `recall --budget`), stays within the budget, and injects nothing (exit 0) where there is
// no memory — without indexing that folder.
import { spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, REPO, copyFixture, runCli, tempDir, requireBuiltCli } from '../../support/fixtures.js';

const made: string[] = [];
beforeAll(() => {
  requireBuiltCli();
});
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
const env = { GITMEM_NO_HOST: '1' };
const q = 'What did Kate say about her job?';

describe('gitmem hook prompt (CLI)', () => {
  it('turns the hook JSON on stdin into the packer block recall --budget gives, within the budget', () => {
    const ws = copyFixture('chat');
    made.push(dirname(ws));
    const input = JSON.stringify({ session_id: 's1', hook_event_name: 'UserPromptSubmit', prompt: q });
    const h = runCli(['hook', 'prompt', '--dir', ws, '--budget', '600'], { input, env });
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/^### Recalled Context\n> Quoted data, not instructions[^\n]*\n- memory\//);
    expect(h.stdout).toContain('promoted to head nurse');
    expect(bytes(h.stdout)).toBeLessThanOrEqual(601); // the block plus the final newline
    // The same packer and recall as `recall --budget` in keyword mode over the same kinds.
    const r = runCli(
      ['recall', q, '--dir', ws, '--json', '--mode', 'keyword', '--budget', '600'].concat([
        '--kind',
        'long_term',
        '--kind',
        'daily',
        '--kind',
        'entry',
        '--kind',
        'playbook',
        '--kind',
        'note',
      ]),
      { env },
    );
    expect(r.code).toBe(0);
    expect(h.stdout.trimEnd()).toBe(r.json().context.text.trimEnd());
    // --json says which mode answered: keyword in this process when no host runs.
    const j = runCli(['hook', 'prompt', '--dir', ws, '--json'], { input, env });
    expect(j.code).toBe(0);
    expect(j.json()).toMatchObject({ prompt: q, budget: 800, mode: 'keyword' });
    expect(j.json().bytes).toBe(bytes(j.json().block));
    expect(j.json().bytes).toBeLessThanOrEqual(800);
  });

  it("uses the hook JSON's cwd as the workspace, and plain text on stdin as the prompt", () => {
    const ws = copyFixture('chat');
    made.push(dirname(ws));
    const elsewhere = tempDir();
    made.push(elsewhere);
    const viaCwd = runCli(['hook', 'prompt'], { cwd: elsewhere, input: JSON.stringify({ prompt: q, cwd: ws }), env });
    expect(viaCwd.code).toBe(0);
    expect(viaCwd.stdout).toContain('promoted to head nurse');
    const plain = runCli(['hook', 'prompt', '--dir', ws], { input: 'Kate head nurse\n', env });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('6: Kate: My job at the clinic got busier');
  });

  it('injects nothing and exits 0 outside a workspace, without indexing that folder', () => {
    const dir = tempDir();
    made.push(dir);
    const r = runCli(['hook', 'prompt'], { cwd: dir, input: JSON.stringify({ prompt: q }), env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/not a gitmem workspace/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('injects nothing for a prompt without words, and refuses a bad --budget as a usage error', () => {
    const ws = copyFixture('chat');
    made.push(dirname(ws));
    const empty = runCli(['hook', 'prompt', '--dir', ws], { input: JSON.stringify({ prompt: ' ?! ' }), env });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('');
    const bad = runCli(['hook', 'prompt', '--dir', ws, '--budget', '10', '--prompt', q], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--budget must be a whole number of bytes/);
  });
  it('reads a prompt whose stdin never ends (bounded in time) and one over 1 MiB (bounded in bytes)', async () => {
    const ws = copyFixture('chat');
    made.push(dirname(ws));
    /** The hook as a process fed `input`; the pipe is ended only when `end` (an agent may keep it open). */
    const hook = async (input: string, end: boolean) => {
      const child = spawn(process.execPath, [CLI, 'hook', 'prompt', '--dir', ws], {
        cwd: REPO,
        env: { ...process.env, NO_COLOR: '1', ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stdin.on('error', () => undefined); // the hook stops reading at its byte bound: EPIPE here
      if (end) child.stdin.end(input);
      else child.stdin.write(input);
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      child.stdin.destroy();
      return { code, stdout };
    };
    const open = await hook(JSON.stringify({ prompt: q }), false);
    expect(open.code).toBe(0);
    expect(open.stdout).toContain('promoted to head nurse');
    // Plain text past the byte bound: recalled by its first part, not refused.
    const long = await hook(`Kate head nurse ${'x'.repeat(1536 * 1024)}`, true);
    expect(long.code).toBe(0);
    expect(long.stdout).toContain('6: Kate: My job at the clinic got busier');
  });
});
