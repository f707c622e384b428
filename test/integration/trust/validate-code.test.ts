// `gitmem validate --code`: the stale-code diagnostics the editor shows (memory.code.stale, on the
// citation's line, the status in the message), through the CLI in a real git repository with history.
// Without --code validate reads no history and reports none.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noModelEnv, requireBuiltCli, runCli, write } from '../../support/fixtures.js';
import { gitAt, removeRepo, webhookRepo } from '../../support/code-repo.js';

let root: string;
const cli = (...args: string[]) => runCli([...args, '--dir', root], { env: noModelEnv(root) });

beforeAll(() => {
  requireBuiltCli();
  root = webhookRepo(); // billing-webhook cites src/billing/webhook.ts (files:) and `handleWebhook`
  write(root, 'src/legacy/old.ts', 'export const OLD = 1;\n');
  write(
    root,
    'memory/MEMORY.md',
    '# Memory\n\n- Invoices are numbered per customer.\n- The old flag lives in src/legacy/old.ts.\n',
  );
  gitAt(root, '2026-01-06T10:00:00Z', 'add', '-A');
  gitAt(root, '2026-01-06T10:00:00Z', 'commit', '-q', '-m', 'legacy flag');
  write(root, 'src/billing/webhook.ts', 'export function onWebhook(body: string) {\n  return JSON.parse(body);\n}\n');
  rmSync(join(root, 'src/legacy/old.ts'));
  gitAt(root, '2026-02-01T10:00:00Z', 'add', '-A');
  gitAt(root, '2026-02-01T10:00:00Z', 'commit', '-q', '-m', 'rename handleWebhook, drop legacy');
});
afterAll(() => removeRepo(root));

describe('gitmem validate --code', () => {
  it('reports stale cited code as memory.code.stale on the citation, as the editor does', () => {
    const r = cli('validate', '--code', '--json');
    expect(r.code, r.stderr).toBe(0); // warnings and information: `gitmem verify` is the command that fails CI
    const stale = (
      r.json() as { diagnostics: { path: string; code: string; message: string; range: any }[] }
    ).diagnostics.filter((d) => d.code === 'memory.code.stale');
    expect(stale).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'memory/entries/billing-webhook.md',
          message: '`handleWebhook` is no longer defined in src/billing/webhook.ts',
          range: expect.objectContaining({ start: { line: 8, character: 28 } }),
        }),
        expect.objectContaining({
          path: 'memory/entries/billing-webhook.md',
          message: expect.stringMatching(
            /^src\/billing\/webhook\.ts changed in 1 commit \(\d+ lines\) since this memory was written/,
          ),
          range: expect.objectContaining({ start: { line: 5, character: 8 } }),
        }),
        expect.objectContaining({
          path: 'memory/MEMORY.md',
          message: expect.stringMatching(/^src\/legacy\/old\.ts was deleted since this memory was written/),
          range: { start: { line: 3, character: 24 }, end: { line: 3, character: 41 } },
        }),
      ]),
    );
    expect(stale).toHaveLength(3);
    expect(
      cli('validate', '--json')
        .json()
        .diagnostics.some((d: any) => d.code === 'memory.code.stale'),
    ).toBe(false);
  });

  it('checks only the named files', () => {
    const r = cli('validate', '--code', '--json', 'memory/MEMORY.md');
    const stale = (r.json() as { diagnostics: { path: string; code: string }[] }).diagnostics.filter(
      (d) => d.code === 'memory.code.stale',
    );
    expect(stale.map((d) => d.path)).toEqual(['memory/MEMORY.md']);
  });
});
