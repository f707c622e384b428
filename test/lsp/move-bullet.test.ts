// Bad input T15 (docs/bad-inputs.md): the language server's "Move this bullet into a new entry"
// over real stdio. Its new entry passes `gitmem validate` (no unknown `source.from`); it is not
// offered for a bullet that already is an entry link; and a bullet whose text an entry already
// holds is linked to that entry instead of duplicated; and (U15) no new file is offered through a
// folder that links out of the workspace.
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, gitFixture } from '../support/fixtures.js';
import { initializeSpawned, spawnServer, type SpawnedServer } from '../support/lsp.js';

const ENV = { GITMEM_MODEL_DIR: '/nonexistent-model' };
let root: string;
let s: SpawnedServer;
const uri = (rel: string) => pathToFileURL(join(root, rel)).href;
const at = (line: number) => ({ start: { line, character: 3 }, end: { line, character: 3 } });
const actions = (rel: string, line: number): Promise<any[]> =>
  s.client.sendRequest('textDocument/codeAction', {
    textDocument: { uri: uri(rel) },
    range: at(line),
    context: { diagnostics: [] },
  }) as Promise<any[]>;

beforeAll(async () => {
  root = gitFixture('demo');
  s = spawnServer([process.execPath, CLI, 'lsp', '--stdio'], { cwd: root, env: ENV });
  await initializeSpawned(s, root);
  await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready', 40_000);
}, 60_000);
afterAll(() => {
  s?.kill();
  rmSync(dirname(root), { recursive: true, force: true });
});

describe('LSP: move a bullet into a new entry', () => {
  it('the new entry passes validate; the bullet that is now a link is not offered again', async () => {
    const move = (await actions('memory/MEMORY.md', 6)).find((a) =>
      a.title.startsWith('Move this bullet into a new entry'),
    );
    expect(move).toBeDefined();
    const [create, fill, edit] = move.edit.documentChanges;
    const target = fileURLToPath(create.uri);
    expect(fill.edits[0].newText).not.toMatch(/^\s*from:/m);
    // Apply the workspace edit as a client would.
    writeFileSync(target, fill.edits[0].newText);
    const memPath = join(root, 'memory/MEMORY.md');
    const lines = readFileSync(memPath, 'utf8').split('\n');
    lines[6] = edit.edits[0].newText.replace(/\n$/, '');
    writeFileSync(memPath, lines.join('\n'));
    const v = runCli(['validate', '--dir', root, '--json'], { env: ENV });
    expect(v.json().diagnostics.filter((d: any) => d.severity === 'error')).toEqual([]);
    expect(v.code).toBe(0);

    await s.client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: uri('memory/MEMORY.md'), languageId: 'markdown', version: 1, text: lines.join('\n') },
    });
    const again = await actions('memory/MEMORY.md', 6);
    expect(again.filter((a) => /Move this bullet|link to the existing entry/.test(a.title))).toEqual([]);
  });

  it('a bullet whose text an entry already holds is linked to it, not duplicated', async () => {
    const entry = readFileSync(join(root, 'memory/entries/2026-11-25-prefer-small-prs.md'), 'utf8');
    const body = entry
      .slice(entry.indexOf('\n---', 3) + 4)
      .trim()
      .replace(/\s+/g, ' ');
    const text = `# Memory\n\n## Notes\n\n- ${body}\n`;
    await s.client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: uri('memory/2026-11-30.md'), languageId: 'markdown', version: 1, text },
    });
    const offered = await actions('memory/2026-11-30.md', 4);
    expect(offered.some((a) => a.title.startsWith('Move this bullet'))).toBe(false);
    const link = offered.find((a) => a.title.includes('link to the existing entry'));
    expect(link?.title).toMatch(/prefer-small-prs/);
  });

  // docs/bad-inputs.md U15: the client creates the file an action names, so a folder that is a
  // symlink out of the workspace would take the new entry outside it. Last test: it replaces entries/.
  it('offers no new file through a folder that links out of the workspace', async () => {
    const outside = join(dirname(root), 'outside-entries');
    mkdirSync(outside);
    cpSync(join(root, 'memory/entries'), outside, { recursive: true });
    renameSync(join(root, 'memory/entries'), join(dirname(root), 'entries-away'));
    symlinkSync(outside, join(root, 'memory/entries'));
    const offered = await actions('memory/MEMORY.md', 8);
    expect(offered.filter((a) => a.edit?.documentChanges?.some((c: any) => c.kind === 'create'))).toEqual([]);
  });
});
