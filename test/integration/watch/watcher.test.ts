// Watcher and incremental indexing with REAL chokidar events in temp folders (bad inputs B15–B18,
// B32, B38 of docs/bad-inputs.md). Every wait is for a change event or a condition re-checked on
// each event, with a timeout; nothing sleeps to synchronise.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { watch as realChokidar, type FSWatcher } from 'chokidar';
import { afterEach, describe, expect, it } from 'vitest';
import { git } from '../../support/fixtures.js';
import { openMemory, paths, sameAsRebuild, watchWorkspace, workspace, type Watched } from '../../support/watch.js';

const running: Watched[] = [];
afterEach(async () => {
  for (const w of running.splice(0)) await w.stop().catch(() => undefined);
});

async function watch(root: string, options: Parameters<typeof watchWorkspace>[1] = {}): Promise<Watched> {
  const w = await watchWorkspace(root, options);
  running.push(w);
  return w;
}

const touched = (p: string) => (e: { upserted: readonly string[]; removed: readonly string[] }) =>
  e.upserted.includes(p) || e.removed.includes(p);

describe('watcher', () => {
  it('B15: atomic saves (rename over, backup-write-delete, delete-then-create) of several files, twice, then an append', async () => {
    const files = ['memory/MEMORY.md', 'memory/DREAMS.md', 'memory/CURRENT_STATE.md'];
    const root = workspace(Object.fromEntries(files.map((f) => [f, `# ${f}\n\n- original text\n`])));
    const w = await watch(root);
    let n = 0;
    for (let round = 0; round < 2; round++) {
      for (const f of files) {
        const word = `roundword${++n}x`;
        const abs = join(root, f);
        const next = w.next(touched(f));
        if (n % 3 === 0) {
          // neovim default: rename the original to a backup, write a new file, delete the backup.
          renameSync(abs, `${abs}~`);
          writeFileSync(abs, `# ${f}\n\n- ${word}\n`);
          unlinkSync(`${abs}~`);
        } else if (n % 3 === 1) {
          // write a temp file, rename it over the original (IntelliJ safe write, write-file-atomic).
          writeFileSync(`${abs}.tmp`, `# ${f}\n\n- ${word}\n`);
          renameSync(`${abs}.tmp`, abs);
        } else {
          unlinkSync(abs);
          writeFileSync(abs, `# ${f}\n\n- ${word}\n`);
        }
        await next;
        expect(await paths(w.mem, word), `${f} round ${round}`).toEqual([f]);
      }
    }
    for (const f of files) {
      const next = w.next(touched(f));
      appendFileSync(join(root, f), '- appended zanzibar\n');
      await next;
    }
    expect((await paths(w.mem, 'zanzibar')).sort()).toEqual([...files].sort());
    // Never a delete for a file that was saved atomically.
    expect(w.events.flatMap((e) => e.removed)).toEqual([]);
  });

  it('B16: recall never loses MEMORY.md during atomic saves; a slow writer is indexed once, complete; create-delete-recreate ends present', async () => {
    const root = workspace({
      'memory/MEMORY.md': '# Memory\n\n- keepword version zero\n',
      'memory/entries/slow.md': '---\nid: slow\ntype: learning\ntitle: old\n---\n\noldbody content\n',
    });
    const w = await watch(root);
    // (1) atomic saves while recall runs in a loop.
    let looping = true;
    let checks = 0;
    const loop = (async () => {
      while (looping) {
        expect(await paths(w.mem, 'keepword')).toEqual(['memory/MEMORY.md']);
        checks++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let i = 1; i <= 5; i++) {
      const next = w.next(touched('memory/MEMORY.md'));
      const abs = join(root, 'memory', 'MEMORY.md');
      writeFileSync(`${abs}.tmp`, `# Memory\n\n- keepword version ${i}\n`);
      renameSync(`${abs}.tmp`, abs);
      await next;
    }
    looping = false;
    await loop;
    expect(checks).toBeGreaterThan(5);
    // (2) a slow writer: front-matter first, then 300 ms later the rest.
    const slowEvents = () => w.events.filter(touched('memory/entries/slow.md')).length;
    const before = slowEvents();
    const done = w.next(touched('memory/entries/slow.md'));
    const script = `const fs=require('fs');const p=process.argv[1];fs.writeFileSync(p,'---\\nid: slow\\ntype: learning\\ntitle: halfway');setTimeout(()=>{fs.appendFileSync(p,' done\\n---\\n\\nfinalbody words\\n');},300);`;
    const child = spawn(process.execPath, ['-e', script, join(root, 'memory', 'entries', 'slow.md')], {
      stdio: 'ignore',
    });
    const exited = new Promise((r) => child.on('exit', r));
    // The old entry stays findable until the new one is complete.
    expect(await paths(w.mem, 'oldbody')).toEqual(['memory/entries/slow.md']);
    await exited;
    await done;
    expect(await paths(w.mem, 'finalbody')).toEqual(['memory/entries/slow.md']);
    expect(await paths(w.mem, 'oldbody')).toEqual([]);
    expect(slowEvents() - before).toBe(1); // the half-written state was never indexed
    // (3) create x.md, delete it within 100 ms, recreate it later: x.md ends in the index.
    const x = join(root, 'memory', 'x.md');
    writeFileSync(x, '# x\n\n- ephemeral one\n');
    unlinkSync(x);
    const recreated = w.next((e) => e.upserted.includes('memory/x.md'));
    writeFileSync(x, '# x\n\n- survivorword\n');
    await recreated;
    expect(await paths(w.mem, 'survivorword')).toEqual(['memory/x.md']);
  });

  it('B17: a git checkout touching hundreds of files gives one update, and the index equals a rebuild', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++)
      files[`memory/daily/2025-01-${String(i).padStart(3, '0')}.md`] = `# day ${i}\n\n- branchaword note${i} alpha\n`;
    const root = workspace(files);
    git(root, 'init', '-q', '-b', 'a');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'a');
    git(root, 'checkout', '-q', '-b', 'b');
    for (let i = 0; i < 200; i++)
      writeFileSync(
        join(root, `memory/daily/2025-01-${String(i).padStart(3, '0')}.md`),
        `# day ${i}\n\n- branchbword note${i} beta\n`,
      );
    for (let i = 200; i < 250; i++) unlinkSync(join(root, `memory/daily/2025-01-${String(i).padStart(3, '0')}.md`));
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'b');
    git(root, 'checkout', '-q', 'a');
    const w = await watch(root, { gitdir: join(root, '.git') });
    const day = (i: number) => `memory/daily/2025-01-${String(i).padStart(3, '0')}.md`;
    expect(w.events[0]!.chunks).toBe(300);
    const start = w.events.length;
    git(root, 'checkout', '-q', 'b');
    await w.until(
      async () =>
        w.events.length > start &&
        w.events[w.events.length - 1]!.chunks === 250 &&
        JSON.stringify(await paths(w.mem, '+note199 +branchbword')) === JSON.stringify([day(199)]) &&
        JSON.stringify(await paths(w.mem, '+note0 +branchbword')) === JSON.stringify([day(0)]) &&
        JSON.stringify(await paths(w.mem, '+note250 +branchaword')) === JSON.stringify([day(250)]) &&
        (await paths(w.mem, 'note220')).length === 0,
    );
    const updates = w.events.slice(start).filter((e) => e.reason === 'changes');
    expect(updates.length).toBeLessThanOrEqual(2); // one burst (a second only if the OS delivered stragglers late)
    expect(updates.reduce((n, e) => n + e.upserted.length, 0)).toBe(200);
    expect(updates.reduce((n, e) => n + e.removed.length, 0)).toBe(50);
    expect(
      await sameAsRebuild(w.mem, root, ['branchaword', 'branchbword', 'note17', 'note230', 'alpha beta', 'not*']),
    ).toBe(true);
  });

  it('B18: a checkpoint commit, a write-back of identical content and node_modules cause no re-indexing; ENOSPC falls back to polling', async () => {
    const nm: Record<string, string> = {};
    for (let i = 0; i < 300; i++) nm[`memory/node_modules/pkg${i}/README.md`] = `# pkg ${i}\n\n- vendored\n`;
    const root = workspace({ 'memory/MEMORY.md': '# Memory\n\n- checkpoint me\n', ...nm });
    git(root, 'init', '-q');
    let boom: FSWatcher | undefined;
    const w = await watch(root, {
      gitdir: join(root, '.git'),
      watcher: {
        chokidarWatch: (p, o) => {
          // Real chokidar; the first instance is told the watch limit was hit once it is ready.
          const inst = realChokidar(p, o);
          if (!boom) {
            boom = inst;
            inst.once('ready', () =>
              inst.emit(
                'error',
                Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), {
                  code: 'ENOSPC',
                }),
              ),
            );
          }
          return inst;
        },
        pollIntervalMs: 100,
      },
    });
    expect(await paths(w.mem, 'vendored')).toEqual([]);
    // ENOSPC → clear warning, polling, still working.
    await w.until(() => w.warnings.length > 0);
    expect(w.warnings[0]).toMatch(/ENOSPC.*polling/);
    expect(w.watcher()!.mode).toBe('polling');
    // (1) a checkpoint (commit) touches only .git.
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'checkpoint');
    // (2) a listener that writes the same content back on every change must not loop.
    const mem = join(root, 'memory', 'MEMORY.md');
    w.mem.onDidChange((e) => {
      if (e.upserted.includes('memory/MEMORY.md')) writeFileSync(mem, readFileSync(mem));
    });
    const first = w.next(touched('memory/MEMORY.md'));
    writeFileSync(mem, '# Memory\n\n- checkpoint me again\n');
    await first;
    // (3) a vendored folder changing.
    writeFileSync(join(root, 'memory', 'node_modules', 'pkg1', 'README.md'), '# changed\n\n- vendored again\n');
    const start = w.events.length;
    const sentinel = w.next(touched('memory/sentinel.md'));
    writeFileSync(join(root, 'memory', 'sentinel.md'), '# s\n\n- sentinel\n');
    const e = await sentinel;
    // The first event after the commit, the write-back and the vendored change is the sentinel alone.
    expect(w.events.slice(start)[0]).toBe(e);
    expect([...e.upserted, ...e.removed]).toEqual(['memory/sentinel.md']);
    expect(
      w.events.filter((e) => e.reason === 'changes' && touched('memory/MEMORY.md')(e)).length,
      JSON.stringify(w.events),
    ).toBe(1);
  });

  it('B32: edits made while nothing watched are re-indexed before watching is ready; a foreign index version is rebuilt', async () => {
    const root = workspace({
      'memory/MEMORY.md': '# M\n\n- long term\n',
      'memory/entries/a.md': '# a\n\n- first\n',
      'memory/entries/b.md': '# b\n\n- second\n',
      'memory/2026-01-01.md': '# d\n\n- day\n',
    });
    const w1 = await watch(root);
    const indexDir = w1.indexDir;
    await w1.stop();
    running.splice(running.indexOf(w1), 1);
    writeFileSync(join(root, 'memory', 'MEMORY.md'), '# M\n\n- offlineedit one\n');
    writeFileSync(join(root, 'memory', 'entries', 'a.md'), '# a\n\n- offlineedit two\n');
    unlinkSync(join(root, 'memory', 'entries', 'b.md'));
    writeFileSync(join(root, 'memory', 'entries', 'c.md'), '# c\n\n- offlineedit three\n');
    const w2 = await watch(root, { indexDir });
    // No wait: ready means reconciled.
    expect((await paths(w2.mem, 'offlineedit')).sort()).toEqual([
      'memory/MEMORY.md',
      'memory/entries/a.md',
      'memory/entries/c.md',
    ]);
    expect(await paths(w2.mem, 'second')).toEqual([]);
    await w2.stop();
    running.splice(running.indexOf(w2), 1);
    // A manifest from another format version is never served: it is rebuilt on start.
    const manifest = JSON.parse(readFileSync(join(indexDir, 'manifest.json'), 'utf8'));
    writeFileSync(join(indexDir, 'manifest.json'), JSON.stringify({ ...manifest, formatVersion: 999 }));
    writeFileSync(join(root, 'memory', '2026-01-01.md'), '# d\n\n- changedwhileforeign\n');
    const w3 = await watch(root, { indexDir });
    expect(await paths(w3.mem, 'changedwhileforeign')).toEqual(['memory/2026-01-01.md']);
    expect(await paths(w3.mem, 'offlineedit')).toHaveLength(3);
  });

  it('B38: create-then-rename, names differing in case or spaces, a folder renamed by case, NFD names, a symlink loop and an unreadable link', async () => {
    const root = workspace({ 'memory/Finance/budget.md': '# budget\n\n- ledgerword\n' });
    const w = await watch(root);
    // (1) another process creates "Projects Index.md" and immediately renames it.
    const created = w.next((e) => e.upserted.includes('memory/projects index.md'));
    writeFileSync(join(root, 'memory', 'Projects Index.md'), '# p\n\n- projectword\n');
    renameSync(join(root, 'memory', 'Projects Index.md'), join(root, 'memory', 'projects index.md'));
    await created;
    await w.until(
      async () => JSON.stringify(await paths(w.mem, 'projectword')) === JSON.stringify(['memory/projects index.md']),
    );
    // (2) a case-only folder rename.
    const moved = w.next((e) => e.upserted.includes('memory/finance/budget.md'));
    renameSync(join(root, 'memory', 'Finance'), join(root, 'memory', 'finance'));
    await moved;
    await w.until(
      async () => JSON.stringify(await paths(w.mem, 'ledgerword')) === JSON.stringify(['memory/finance/budget.md']),
    );
    // (3) two names differing by a hyphen; NFD (decomposed) name.
    const both = w.until(async () => (await paths(w.mem, 'twinword')).length === 2);
    writeFileSync(join(root, 'memory', 'basic-memory bug.md'), '# a\n\n- twinword one\n');
    writeFileSync(join(root, 'memory', 'basic memory bug.md'), '# b\n\n- twinword two\n');
    await both;
    const nfd = 'memory/Cafe\u0301 notes.md';
    const nfdEvent = w.next((e) => e.upserted.includes(nfd));
    writeFileSync(join(root, nfd), '# café\n\n- decomposedword\n');
    await nfdEvent;
    expect(await paths(w.mem, 'decomposedword')).toEqual([nfd]);
    // (4) a symlink loop and a dangling/looping file link are reported and skipped; the watcher keeps going.
    symlinkSync(join(root, 'memory'), join(root, 'memory', 'loop'));
    symlinkSync('self.md', join(root, 'memory', 'self.md'));
    const after = w.next((e) => e.upserted.includes('memory/after.md'));
    writeFileSync(join(root, 'memory', 'after.md'), '# after\n\n- stillworking\n');
    await after;
    expect(await paths(w.mem, 'stillworking')).toEqual(['memory/after.md']);
    const gone = w.next((e) => e.removed.includes(nfd));
    unlinkSync(join(root, nfd));
    await gone;
    expect(await paths(w.mem, 'decomposedword')).toEqual([]);
    rmSync(join(root, 'memory', 'loop'));
    rmSync(join(root, 'memory', 'self.md'));
    expect(await sameAsRebuild(w.mem, root, ['ledgerword', 'projectword', 'twinword', 'stillworking', 'budget'])).toBe(
      true,
    );
  });

  it('one writer (B37): a second watcher on the same index keeps its index in memory; a stale lock of a dead process is recovered', async () => {
    const root = workspace({ 'memory/MEMORY.md': '# M\n\n- shared\n' });
    const w1 = await watch(root);
    const w2 = await watch(root, { indexDir: w1.indexDir });
    const e2 = w2.next(touched('memory/MEMORY.md'));
    const e1 = w1.next(touched('memory/MEMORY.md'));
    writeFileSync(join(root, 'memory', 'MEMORY.md'), '# M\n\n- shared writerword\n');
    const [a, b] = await Promise.all([e1, e2]);
    expect(a.persisted).toBe(true);
    expect(b.persisted).toBe(false);
    expect(await paths(w2.mem, 'writerword')).toEqual(['memory/MEMORY.md']);
    await w2.stop();
    await w1.stop();
    running.length = 0;
    // A lock left by a killed process (a pid that no longer runs) is taken over.
    writeFileSync(
      join(w1.indexDir, 'write.lock'),
      JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), token: 'dead', since: '' }),
    );
    const w3 = await watch(root, { indexDir: w1.indexDir });
    const e3 = w3.next(touched('memory/MEMORY.md'));
    writeFileSync(join(root, 'memory', 'MEMORY.md'), '# M\n\n- after recovery\n');
    expect((await e3).persisted).toBe(true);
    await w3.stop();
    running.length = 0;
    expect(existsSync(join(w1.indexDir, 'write.lock'))).toBe(false);
    const reopened = await openMemory(root, w1.indexDir);
    expect((await reopened.index()).source).toBe('loaded');
    await reopened.dispose();
  });
});
