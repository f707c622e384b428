// Bad input U68 (docs/bad-inputs.md), the editor's path: gitmem/checkpoint and the review view's
// gitmem/checkpointFiles commit a memory file over limits.maxFileBytes like `gitmem checkpoint` does,
// and their reply lists it under `oversized` (path, bytes) as the CLI's --json does; before, the
// reply said nothing, so the extension showed a plain "checkpoint …" for a file recall never finds.
// Real server over stdio, real git repository.
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFixture, git } from '../support/fixtures.js';
import { spawnCliServer, initializeSpawned, write, type SpawnedServer } from '../support/lsp.js';

let root: string;
let s: SpawnedServer;
const big = `# Big\n\n${'- a long line of meeting notes about webhook retries\n'.repeat(100)}`; // 5,307 bytes

beforeAll(async () => {
  root = copyFixture('default');
  writeFileSync(
    join(root, 'gitmem.config.json'),
    JSON.stringify({ version: 1, layout: 'default', limits: { maxFileBytes: 4096 } }),
  );
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'memory');
  s = spawnCliServer(root);
  await initializeSpawned(s, root);
  await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready');
});

afterAll(async () => {
  await s?.client.sendRequest('shutdown').catch(() => undefined);
  s?.kill();
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

describe('U68 in the editor: a checkpoint reply names the committed file recall skips', () => {
  it('gitmem/checkpoint lists the oversized file; a small one is not listed', async () => {
    write(root, 'memory/big.md', big);
    write(root, 'memory/small.md', '# Small\n\n- fits\n');
    const c: any = await s.client.sendRequest('gitmem/checkpoint', { message: 'two notes' });
    expect(c.kind).toBe('committed');
    expect(c.changes.added).toEqual(['memory/big.md', 'memory/small.md']);
    expect(c.oversized).toEqual([{ path: 'memory/big.md', bytes: Buffer.byteLength(big) }]);
  });

  it('gitmem/checkpointFiles too; and an empty list when nothing committed is over the cap', async () => {
    write(root, 'memory/big.md', `${big}- one more line\n`);
    write(root, 'memory/small.md', '# Small\n\n- fits, edited\n');
    const one: any = await s.client.sendRequest('gitmem/checkpointFiles', { paths: ['memory/big.md'] });
    expect(one.oversized).toEqual([{ path: 'memory/big.md', bytes: Buffer.byteLength(big) + 16 }]);
    const other: any = await s.client.sendRequest('gitmem/checkpointFiles', { paths: ['memory/small.md'] });
    expect(other.kind).toBe('committed');
    expect(other.oversized).toEqual([]);
  });
});
