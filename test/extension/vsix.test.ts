// The packaged extension: `scripts/package-extension.mjs` (vsce) builds a .vsix whose file list is
// exactly the bundles, the schema and the manifest; the server inside it starts and speaks LSP.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { copyFixture, REPO, tempDir } from '../support/fixtures.js';
import { parseFrames, spawnServer, type SpawnedServer } from '../support/lsp.js';
import { zipEntries, zipRead } from '../support/zip.js';

let vsix: Buffer;
let server: SpawnedServer | undefined;

beforeAll(() => {
  const out = join(tempDir('gitmem-vsix-'), 'gitmem.vsix');
  execFileSync(process.execPath, [join(REPO, 'scripts', 'package-extension.mjs'), '--out', out], {
    cwd: REPO,
    stdio: 'pipe',
  });
  vsix = readFileSync(out);
}, 60_000);

afterAll(() => server?.kill());

it('the .vsix holds the bundles, the config schema and the manifest, and nothing else', () => {
  const names = zipEntries(vsix)
    .map((e) => e.name)
    .sort();
  expect(names).toEqual(
    [
      '[Content_Types].xml',
      'extension.vsixmanifest',
      'extension/LICENSE.txt',
      'extension/dist/extension.js',
      'extension/dist/server.js',
      'extension/package.json',
      'extension/readme.md',
      'extension/schemas/config.schema.json',
    ]
      .concat(['extension/dist/lexical-worker.js', 'extension/dist/embed-worker.js'].filter((w) => names.includes(w)))
      .sort(),
  );
  expect(names.some((n) => /node_modules|\/test\/|\.test\.|\/src\/|\.map$|\.ts$/.test(n))).toBe(false);
  expect(vsix.length).toBeLessThan(3 * 1024 * 1024);
  const manifest = JSON.parse(
    zipRead(
      vsix,
      zipEntries(vsix).find((e) => e.name === 'extension/package.json')!,
    ).toString('utf8'),
  );
  expect(manifest.main).toBe('./dist/extension.js');
  expect(manifest.type).toBeUndefined(); // CommonJS scope: VS Code loads CJS
  expect(manifest.contributes.jsonValidation).toEqual([
    { fileMatch: 'gitmem.config.json', url: './schemas/config.schema.json' },
  ]);
  const schema = JSON.parse(
    zipRead(
      vsix,
      zipEntries(vsix).find((e) => e.name === 'extension/schemas/config.schema.json')!,
    ).toString('utf8'),
  );
  expect(schema).toEqual(JSON.parse(readFileSync(join(REPO, 'schemas', 'config.schema.json'), 'utf8')));
});

it('the server bundle inside the .vsix starts on its own and answers initialize with protocol bytes only', async () => {
  const dir = tempDir('gitmem-vsix-run-');
  for (const e of zipEntries(vsix).filter((x) => x.name.startsWith('extension/dist/'))) {
    const target = join(dir, e.name);
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(target, zipRead(vsix, e));
  }
  const root = copyFixture('default');
  server = spawnServer([process.execPath, join(dir, 'extension', 'dist', 'server.js'), '--stdio'], {
    cwd: dir,
    env: { GITMEM_MODEL_DIR: join(dir, 'none') },
  });
  const res: any = await server.client.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    capabilities: {},
  });
  expect(res.serverInfo).toMatchObject({ name: 'gitmem' });
  await server.client.sendNotification('initialized', {});
  await server.inbox.until(() => server!.inbox.ready !== undefined, 'gitmem/ready');
  const r: any = await server.client.sendRequest('gitmem/recall', { query: 'lunr' });
  expect(r.results[0].path).toBe('memory/entries/use-lunr.md');
  await server.client.sendRequest('shutdown');
  await server.client.sendNotification('exit');
  expect(await server.exited()).toBe(0);
  expect(parseFrames(server.stdout()).length).toBeGreaterThan(2);
}, 30_000);
