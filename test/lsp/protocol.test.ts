// Protocol discipline: B28 (stdout holds only protocol frames), B29 (bad files and bad messages never
// take the server down), B30 (one save, one index update), B31 (initialize answers at once while
// indexing runs in the background; stale requests are cancelled). Real processes where it matters.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CancellationTokenSource } from 'vscode-languageserver-protocol/node.js';
import { afterAll, describe, expect, it } from 'vitest';
import { DiagnosticCode } from '../../src/core/diagnostics.js';
import type { MemoryFs } from '../../src/core/ports.js';
import { CLI, copyFixture, REPO, tempDir } from '../support/fixtures.js';
import {
  spawnCliServer,
  CAPABILITIES,
  createLspPair,
  parseFrames,
  spawnServer,
  testPlatform,
  write,
  type SpawnedServer,
} from '../support/lsp.js';

const SERVER_BUNDLE = join(REPO, 'extension', 'dist', 'server.js');
const spawned: SpawnedServer[] = [];
afterAll(() => {
  for (const s of spawned) s.kill();
});

async function initialize(s: SpawnedServer, root: string) {
  const t = performance.now();
  const result: any = await s.client.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'ws' }],
    capabilities: CAPABILITIES,
  });
  const ms = performance.now() - t;
  await s.client.sendNotification('initialized', {});
  return { result, ms };
}

async function shutdown(s: SpawnedServer): Promise<number | null> {
  await s.client.sendRequest('shutdown');
  await s.client.sendNotification('exit');
  return s.exited();
}

describe('B28: nothing but protocol bytes on stdout', () => {
  for (const [name, command] of [
    ['gitmem lsp --stdio (dist/cli.cjs)', [process.execPath, '--require', '__PRELOAD__', CLI, 'lsp', '--stdio']],
    ['the bundled extension/dist/server.js', [process.execPath, '--require', '__PRELOAD__', SERVER_BUNDLE, '--stdio']],
  ] as const) {
    it(`${name}: console.log, console.error and raw stdout writes from a dependency all go elsewhere`, async () => {
      expect(existsSync(command[3]), `${command[3]} missing: run npm run build`).toBe(true);
      const dir = tempDir('gitmem-b28-');
      const preload = join(dir, 'noisy.cjs');
      // Stands in for a chatty dependency: prints to stdout in every way, before and after the server starts.
      // It starts once the server's first module has replaced process.stdout.write (the guard is the
      // entry's first import, so no code of ours or of a bundled dependency runs before it).
      writeFileSync(
        preload,
        [
          'const orig = process.stdout.write;',
          'let n = 0;',
          "const t = setInterval(() => { if (process.stdout.write === orig) return; console.log('noisy log', n); console.info('noisy info'); console.warn('noisy warn'); console.error('noisy error'); process.stdout.write('raw stdout write ' + n + '\\n'); if (++n >= 20) clearInterval(t); }, 2);",
          '',
        ].join('\n'),
      );
      const root = copyFixture('broken');
      const s = spawnServer(
        command.map((c) => (c === '__PRELOAD__' ? preload : c)),
        { cwd: root, env: { DEBUG: '*', GITMEM_MODEL_DIR: join(dir, 'no-model') } },
      );
      spawned.push(s);
      const { result } = await initialize(s, root);
      expect(result.serverInfo.name).toBe('gitmem');
      await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready');
      await s.client.sendNotification('textDocument/didOpen', {
        textDocument: {
          uri: pathToFileURL(join(root, 'memory/entries/wrong-type.md')).href,
          languageId: 'markdown',
          version: 1,
          text: '---\ntype: nope\n---\n',
        },
      });
      await s.inbox.until(
        () => s.inbox.logs.some((l) => l.includes('noisy log 19')) || s.stderr().includes('noisy log 19'),
        'the noisy preload to finish',
      );
      expect(await shutdown(s)).toBe(0);
      const frames = parseFrames(s.stdout()); // throws on any stray byte
      expect(frames.length).toBeGreaterThan(3);
      expect(frames.some((f) => f.id !== undefined && f.result?.capabilities)).toBe(true);
      // console.* after startup is routed to the client's log (window/logMessage frames); raw writes to stderr.
      const noisy = frames.filter((f) => JSON.stringify(f).includes('noisy'));
      expect(noisy.length).toBeGreaterThan(0);
      expect(noisy.every((f) => f.method === 'window/logMessage')).toBe(true);
      expect(s.stdout().toString()).not.toContain('raw stdout write');
      expect(s.stderr()).toContain('raw stdout write 19');
    }, 30_000);
  }
});

describe('B29: a broken file or a bad message never takes the server down', () => {
  it('real process: bad files are diagnostics; malformed requests are errors; the server keeps answering', async () => {
    const root = copyFixture('broken');
    write(root, 'memory/entries/latin1.md', '---\ntype: learning\n---\n');
    writeFileSync(
      join(root, 'memory/entries/latin1.md'),
      Buffer.from([
        0x2d, 0x2d, 0x2d, 0x0a, 0x74, 0x79, 0x70, 0x65, 0x3a, 0x20, 0x6c, 0x65, 0x61, 0x72, 0x6e, 0x69, 0x6e, 0x67,
        0x0a, 0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0xff, 0x0a,
      ]),
    );
    writeFileSync(join(root, 'memory/entries/huge.md'), `---\ntype: learning\n---\n${'x'.repeat(6_000_000)}\n`);
    const s = spawnCliServer(root);
    spawned.push(s);
    await initialize(s, root);
    await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready');
    const codes = new Set([...s.inbox.diagnostics.values()].flatMap((d) => d.diagnostics.map((x) => x.code)));
    for (const c of [
      DiagnosticCode.invalidYaml,
      DiagnosticCode.unsupportedLanguage,
      DiagnosticCode.binaryFile,
      DiagnosticCode.invalidUtf8,
      DiagnosticCode.fileTooLarge,
    ])
      expect(codes).toContain(c);

    const uri = pathToFileURL(join(root, 'memory/entries/wrong-type.md')).href;
    // Malformed messages: missing params, wrong types, URIs outside the root, unknown documents.
    await expect(s.client.sendRequest('textDocument/hover', {})).resolves.toBeNull();
    await expect(
      s.client.sendRequest('textDocument/hover', {
        textDocument: { uri: 'file:///etc/passwd' },
        position: { line: 0, character: 0 },
      }),
    ).resolves.toBeNull();
    await expect(
      s.client.sendRequest('textDocument/completion', {
        textDocument: { uri },
        position: { line: -5, character: 1e9 },
      }),
    ).resolves.toBeDefined();
    await expect(s.client.sendRequest('gitmem/recall', { query: 42 })).rejects.toMatchObject({ code: -32602 });
    await expect(s.client.sendRequest('gitmem/checkpoint', {})).rejects.toMatchObject({
      data: { code: 'git.not-a-repository' },
    });
    await s.client.sendNotification('textDocument/didChange', {
      textDocument: { uri: 'file:///nowhere.md', version: 3 },
      contentChanges: [{ text: 'x' }],
    });
    await s.client.sendNotification('workspace/didChangeWatchedFiles', { changes: null });
    await s.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: 'not a uri', type: 2 }] });
    await s.client.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text: '---\n\u0000\u0000: [\n' },
    });

    const hover: any = await s.client.sendRequest('textDocument/hover', {
      textDocument: { uri: pathToFileURL(join(root, 'memory/MEMORY.md')).href },
      position: { line: 2, character: 8 },
    });
    expect(hover === null || typeof hover.contents?.value === 'string').toBe(true);
    const recall: any = await s.client.sendRequest('gitmem/recall', { query: 'memory' });
    expect(Array.isArray(recall.results)).toBe(true);
    expect(s.child.exitCode).toBeNull();
    expect(await shutdown(s)).toBe(0);
  }, 30_000);

  it('in-process: a file whose read throws is skipped; the rest of the workspace is served', async () => {
    const root = copyFixture('default');
    const boom = (fs: MemoryFs): MemoryFs => ({
      ...fs,
      root: fs.root,
      list: fs.list.bind(fs),
      stat: fs.stat.bind(fs),
      writeTextAtomic: fs.writeTextAtomic.bind(fs),
      read: async (path) => {
        if (path.endsWith('use-lunr.md')) throw new Error('EIO: simulated disk error');
        return fs.read(path);
      },
      // Both reads fail for that file (the overlay now reads through readChecked, as the CLI does).
      readChecked: async (path) => {
        if (path.endsWith('use-lunr.md')) throw new Error('EIO: simulated disk error');
        return fs.readChecked!(path);
      },
    });
    const p = createLspPair(root, { openWorkspace: testPlatform(root, { wrapFs: boom }) });
    await p.start();
    expect(p.inbox.ready).toBeDefined();
    expect(p.server.status().state).toBe('ready');
    const h: any = await p.client.sendRequest('textDocument/hover', {
      textDocument: { uri: p.uri('memory/entries/use-lunr.md') },
      position: { line: 11, character: 70 },
    });
    expect(h).toBeNull(); // the unreadable file is not in the model
    const r: any = await p.client.sendRequest('gitmem/recall', { query: 'tokenizer identifiers' });
    expect(r.results[0].path).toBe('memory/entries/tokenizer-splits-identifiers.md');
    await p.close();
  });
});

describe('B30: one source of file events, one update per save', () => {
  it('didSave plus the watcher event (twice) for one saved file gives exactly one index update', async () => {
    const root = copyFixture('default');
    const p = createLspPair(root, { reindexDelayMs: 30 });
    await p.start();
    expect(p.server.updates()).toBe(0);
    const rel = 'memory/entries/use-lunr.md';
    writeFileSync(join(root, rel), `${'---\nid: use-lunr\ntype: decision\n---\n'}Saved once: quokka.\n`);
    const statuses = p.inbox.statuses.length;
    await p.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: p.uri(rel), type: 2 }] });
    await p.client.sendNotification('textDocument/didSave', { textDocument: { uri: p.uri(rel) } });
    await p.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: p.uri(rel), type: 2 }] });
    await p.inbox.until(() => p.inbox.statuses.slice(statuses).some((s) => s.state === 'ready'), 'the index update');
    const r: any = await p.client.sendRequest('gitmem/recall', { query: 'quokka' });
    expect(r.results.map((x: any) => x.path)).toEqual([rel]);
    // A repeated event with unchanged content is de-duplicated by content hash: no second update.
    await p.client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: p.uri(rel), type: 2 }] });
    await p.client.sendRequest('gitmem/getStatus', {});
    expect(p.server.updates()).toBe(1);
    expect(p.inbox.statuses.slice(statuses).filter((s) => s.state === 'ready')).toHaveLength(1);
    await p.close();
  });
});

describe('B31: initialize answers at once; requests during indexing; cancellation', () => {
  it('initialize does not wait for indexing; requests during indexing get empty, clearly partial answers', async () => {
    const root = copyFixture('default');
    for (let i = 0; i < 300; i++)
      write(
        root,
        `memory/entries/gen-${i}.md`,
        `---\nid: gen-${i}\ntype: learning\ntags: [gen]\n---\nGenerated memory number ${i} about widgets.\n`,
      );
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = (fs: MemoryFs): MemoryFs => ({
      root: fs.root,
      list: fs.list.bind(fs),
      stat: fs.stat.bind(fs),
      writeTextAtomic: fs.writeTextAtomic.bind(fs),
      writeBytesAtomic: fs.writeBytesAtomic.bind(fs),
      createTextExclusive: fs.createTextExclusive.bind(fs),
      checkWrite: fs.checkWrite.bind(fs),
      remove: fs.remove.bind(fs),
      withFileLock: fs.withFileLock.bind(fs),
      renameFile: fs.renameFile.bind(fs),
      read: async (path) => (path.endsWith('.md') ? (await gate, fs.read(path)) : fs.read(path)),
    });
    const p = createLspPair(root, { openWorkspace: testPlatform(root, { wrapFs: slow }) });
    // Every note read waits on the gate, so indexing cannot finish: initialize answering at all (and
    // before gitmem/ready) shows it does not wait for the index. No wall-clock bound: CI is slower.
    await p.start({ wait: false });
    expect(p.inbox.ready).toBeUndefined();
    await p.inbox.until(() => p.inbox.statuses.some((s) => s.state === 'indexing'), 'indexing status');
    const r: any = await p.client.sendRequest('gitmem/recall', { query: 'widgets' });
    expect(r).toMatchObject({ results: [], degraded: expect.stringContaining('still being built') });
    expect(
      await p.client.sendRequest('textDocument/hover', {
        textDocument: { uri: p.uri('memory/entries/gen-1.md') },
        position: { line: 1, character: 5 },
      }),
    ).toBeNull();
    expect(
      await p.client.sendRequest('textDocument/completion', {
        textDocument: { uri: p.uri('memory/entries/gen-1.md') },
        position: { line: 2, character: 6 },
      }),
    ).toBeNull();
    expect(await p.client.sendRequest('workspace/symbol', { query: 'widgets' })).toEqual([]);
    expect(p.inbox.ready).toBeUndefined();
    release();
    await p.inbox.until(() => p.inbox.ready !== undefined, 'gitmem/ready');
    expect(p.inbox.ready!.files).toBe(306);
    const after: any = await p.client.sendRequest('gitmem/recall', { query: 'widgets', limit: 5 });
    expect(after.results).toHaveLength(5);
    await p.close();
  });

  it('a cancelled recall or completion stops with RequestCancelled; the next request answers', async () => {
    const root = copyFixture('default');
    const p = createLspPair(root);
    await p.start();
    const src = new CancellationTokenSource();
    const pending = p.client.sendRequest('gitmem/recall', { query: 'lunr' }, src.token);
    src.cancel();
    await expect(pending).rejects.toMatchObject({ code: -32800 });
    const src2 = new CancellationTokenSource();
    const pending2 = p.client.sendRequest(
      'textDocument/completion',
      { textDocument: { uri: p.uri('memory/entries/use-lunr.md') }, position: { line: 2, character: 6 } },
      src2.token,
    );
    src2.cancel();
    await expect(pending2).rejects.toMatchObject({ code: -32800 });
    const ok: any = await p.client.sendRequest('gitmem/recall', { query: 'lunr' });
    expect(ok.results.length).toBeGreaterThan(0);
    await p.close();
  });
});
