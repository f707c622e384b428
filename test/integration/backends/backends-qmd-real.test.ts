// The qmd backend against REAL qmd 2.8.3 (npm @tobilu/qmd) on a Node 22 binary, both installed by
// scripts/peer-tools.mjs into their cache folder (npm test installs them before the suites; by hand:
// `node scripts/peer-tools.mjs install`). qmd's BM25 `search` runs offline; its models are not used.
// A fixture Fusion workspace is indexed by qmd (`qmd collection add`), then: results come from qmd
// and map to layered paths; a write through the backend schedules `qmd update`, after which qmd
// finds the new text; with qmd missing the local layered search answers.
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QmdMemoryBackend, type QmdFallbackReason } from '../../../src/index.js';
import { copyFixture, tempDir } from '../../support/fixtures.js';

const PEERS = resolve(__dirname, '..', '..', '..', 'scripts', 'peer-tools.mjs');
const dirs: string[] = [];
let root: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  const peers = (await import(pathToFileURL(PEERS).href)) as {
    missing(): string | undefined;
    peerTools(): { node: string; qmd: string };
  };
  const why = peers.missing();
  if (why) throw new Error(`real qmd is needed for this test: ${why}`);
  const tools = peers.peerTools();
  const base = tempDir('gitmem-qmd-real-');
  dirs.push(base);
  const bin = join(base, 'bin');
  const home = join(base, 'home');
  mkdirSync(bin, { recursive: true });
  mkdirSync(home, { recursive: true });
  // `qmd` on PATH: the Node 22 binary running qmd's CLI; its index lives in this test's own home.
  writeFileSync(join(bin, 'qmd'), `#!/bin/sh\nexec "${tools.node}" "${tools.qmd}" "$@"\n`);
  chmodSync(join(bin, 'qmd'), 0o755);
  env = {
    ...process.env,
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_CONFIG_HOME: join(home, '.config'),
    NO_COLOR: '1',
  };
  root = copyFixture('fusion');
  dirs.push(dirname(root));
  const add = spawnSync(join(bin, 'qmd'), ['collection', 'add', '.fusion/memory', '--name', 'fmem'], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(add.status, add.stderr).toBe(0);
});

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function backend(extra: { env?: NodeJS.ProcessEnv } = {}) {
  const fallbacks: { reason: QmdFallbackReason; detail: string }[] = [];
  const refreshes: { ok: boolean; detail: string }[] = [];
  const b = new QmdMemoryBackend({
    env: extra.env ?? env,
    collection: 'fmem',
    timeoutMs: 30_000,
    refreshDelayMs: 100,
    onFallback: (reason, detail) => fallbacks.push({ reason, detail }),
    onRefresh: (r) => refreshes.push(r),
  });
  return { b, fallbacks, refreshes };
}

describe('qmd backend with real qmd 2.8.3', () => {
  it('search results come from qmd and map to layered paths', async () => {
    const { b, fallbacks } = backend();
    const res = await b.search(root, { query: 'pnpm workspaces', limit: 5 });
    expect(fallbacks).toEqual([]);
    expect(res.length).toBeGreaterThan(0);
    expect(res[0]).toMatchObject({ path: '.fusion/memory/MEMORY.md', backend: 'qmd' });
    expect(res[0]!.snippet).toContain('pnpm workspaces');
    expect(res[0]!.lineStart).toBeGreaterThanOrEqual(1);
    for (const r of res) expect(r.path.startsWith('.fusion/memory/')).toBe(true);
  }, 60_000);

  it('a write schedules qmd update; afterwards qmd finds the new text', async () => {
    const { b, fallbacks, refreshes } = backend();
    await b.search(root, { query: 'zeppelin hangar', limit: 5 });
    expect(fallbacks.map((f) => f.reason)).toEqual(['empty']); // qmd's index does not have it yet
    await b.write(
      root,
      '# Project memory\n\n- The build uses pnpm workspaces.\n- Test balloons are stored in the zeppelin hangar behind the office.\n',
    );
    await b.settled();
    expect(refreshes).toEqual([{ ok: true, detail: 'qmd update' }]);
    const res = await b.search(root, { query: 'zeppelin hangar', limit: 5 });
    expect(fallbacks).toHaveLength(1);
    expect(res[0]).toMatchObject({ path: '.fusion/memory/MEMORY.md', backend: 'qmd' });
    expect(res[0]!.snippet).toContain('zeppelin hangar');
  }, 90_000);

  it('with qmd missing, the local layered search answers', async () => {
    const { b, fallbacks } = backend({ env: { ...env, PATH: join(tempDir(), 'no-bin') } });
    const res = await b.search(root, { query: 'pnpm workspaces', limit: 5 });
    expect(fallbacks.map((f) => f.reason)).toEqual(['missing']);
    expect(res[0]).toMatchObject({ path: '.fusion/memory/MEMORY.md' });
    expect(res[0]!.snippet).toContain('pnpm workspaces');
  });
});
