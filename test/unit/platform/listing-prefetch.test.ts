// The listing a one-shot call takes with find at process start (platform/listing-prefetch.ts), on
// real folders (bad inputs H11, H12 in docs/bad-inputs.md): its stats are the ones statSync gives
// (same stat key, bit for bit), it lists what the walk enters and nothing else, its digest moves with every change a walk would see (a touch, a
// same-size rewrite, a new, gone or renamed file) and stays put otherwise, and it refuses to vouch
// for a workspace holding a symlink or a FIFO. find is a Linux tool here: other platforms walk.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  listingDigest,
  parseFindRecords,
  runListing,
  type PrefetchedListing,
} from '../../../src/platform/listing-prefetch.js';
import { statAt } from '../../../src/platform/stat-key.js';
import { tempDir } from '../../support/fixtures.js';
import { nextTimestampTick } from '../../support/wait.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A workspace with nested folders, odd names and the folders the walk never enters. */
function workspace(): { root: string; scratch: string } {
  const base = tempDir('gitmem-listing-');
  dirs.push(base);
  const root = join(base, 'ws');
  const scratch = join(base, 'state');
  mkdirSync(scratch);
  mkdirSync(join(root, 'memory', 'entries', 'deep er'), { recursive: true });
  writeFileSync(join(root, 'gitmem.config.json'), '{"version":1}');
  writeFileSync(join(root, 'memory', 'MEMORY.md'), '# Memory\n');
  writeFileSync(join(root, 'memory', 'entries', 'a.md'), 'alpha\n');
  writeFileSync(join(root, 'memory', 'entries', 'deep er', 'café ü.md'), 'beta\n');
  writeFileSync(join(root, 'memory', 'entries', 'empty.md'), '');
  for (const hidden of ['.git', 'node_modules', join('memory', '.gitmem')]) {
    mkdirSync(join(root, hidden), { recursive: true });
    writeFileSync(join(root, hidden, 'x.md'), 'never listed\n');
  }
  return { root, scratch };
}

async function list(root: string, scratch: string): Promise<PrefetchedListing> {
  const run = runListing(root, scratch);
  expect(run).toBeDefined();
  run!.ref();
  const l = await run!.done;
  expect(l).toBeDefined();
  return l!;
}

/** Every regular file the walk would reach (not under .git, node_modules or .gitmem). */
function regularFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === '.git' || e.name === 'node_modules' || e.name === '.gitmem') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) regularFiles(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

describe.runIf(process.platform === 'linux')('listing prefetch (GNU find)', () => {
  it('gives each regular file the stat statSync gives, and lists what the walk enters only', async () => {
    const { root, scratch } = workspace();
    const before = Date.now();
    const l = await list(root, scratch);
    expect(l.root).toBe(root);
    expect(l.startedAt).toBeGreaterThanOrEqual(before);
    const stats = l.stats();
    expect([...stats.keys()].sort()).toEqual(regularFiles(root).sort());
    for (const [abs, st] of stats) {
      const s = statAt(abs)!;
      expect({ path: abs, key: st.key, size: st.size, mtimeMs: st.mtimeMs }).toEqual({
        path: abs,
        key: s.key,
        size: s.size,
        mtimeMs: s.mtimeMs,
      });
      expect(st.isDirectory).toBe(false);
      expect(st.takenAt).toBe(l.startedAt);
    }
    // Its output file was unlinked at once: nothing is left in the scratch folder.
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('digest: the same while nothing changes, another after each change a walk would see', async () => {
    const { root, scratch } = workspace();
    const a = join(root, 'memory', 'entries', 'a.md');
    const seen = new Set<string>();
    const digest = async () => (await list(root, scratch)).digest!;
    const first = await digest();
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await digest()).toBe(first);
    seen.add(first);
    const changes: [string, () => void][] = [
      ['same-size rewrite', () => writeFileSync(a, 'ALPHA\n')],
      [
        'mtime put back after a rewrite',
        () => {
          const st = statSync(a);
          writeFileSync(a, 'alpHA\n');
          utimesSync(a, st.atime, st.mtime);
        },
      ],
      ['touch', () => utimesSync(a, new Date(), new Date(Date.now() - 5000))],
      ['new file', () => writeFileSync(join(root, 'memory', 'entries', 'b.md'), 'new\n')],
      ['rename', () => renameSync(join(root, 'memory', 'entries', 'b.md'), join(root, 'memory', 'entries', 'c.md'))],
      ['delete', () => rmSync(join(root, 'memory', 'entries', 'c.md'))],
      ['new folder', () => mkdirSync(join(root, 'memory', 'daily'))],
    ];
    for (const [what, change] of changes) {
      // Past the kernel's timestamp tick (a few ms): a rewrite within one tick keeps mtime and ctime,
      // which is why the walk never records a key that young (core/ports.ts RACY_MS).
      await nextTimestampTick(join(root, '..'));
      change();
      const d = await digest();
      expect({ what, fresh: !seen.has(d) }).toEqual({ what, fresh: true });
      seen.add(d);
      expect(await digest()).toBe(d);
    }
    // A change inside a folder the walk never enters moves nothing.
    const still = await digest();
    writeFileSync(join(root, 'node_modules', 'x.md'), 'changed\n');
    writeFileSync(join(root, '.git', 'y'), 'changed\n');
    expect(await digest()).toBe(still);
  });

  it('no digest for a workspace with a symlink or a FIFO; their regular files still have stats', async () => {
    const { root, scratch } = workspace();
    symlinkSync(join(root, 'memory', 'MEMORY.md'), join(root, 'memory', 'alias.md'));
    let l = await list(root, scratch);
    expect(l.digest).toBeUndefined();
    expect(l.stats().has(join(root, 'memory', 'MEMORY.md'))).toBe(true);
    expect(l.stats().has(join(root, 'memory', 'alias.md'))).toBe(false);
    rmSync(join(root, 'memory', 'alias.md'));
    expect((await list(root, scratch)).digest).toBeDefined();
    expect(spawnSync('mkfifo', [join(root, 'memory', 'pipe.md')]).status).toBe(0);
    l = await list(root, scratch);
    expect(l.digest).toBeUndefined();
  });

  it('lists only what a walk could read: other files are neither statted nor in the digest', async () => {
    const { root, scratch } = workspace();
    mkdirSync(join(root, 'target', 'build'), { recursive: true });
    for (let i = 0; i < 50; i++) writeFileSync(join(root, 'target', 'build', `o${i}.bin`), 'x');
    writeFileSync(join(root, 'memory', 'notes.txt'), 'not memory\n');
    writeFileSync(join(root, 'memory', 'UPPER.MD'), 'memory too\n');
    const l = await list(root, scratch);
    expect([...l.stats().keys()].filter((p) => !/\.md$/i.test(p))).toEqual([join(root, 'gitmem.config.json')]);
    expect(l.stats().has(join(root, 'memory', 'UPPER.MD'))).toBe(true);
    await nextTimestampTick(join(root, '..'));
    writeFileSync(join(root, 'memory', 'notes.txt'), 'changed, same folder\n');
    writeFileSync(join(root, 'target', 'build', 'o1.bin'), 'changed');
    expect((await list(root, scratch)).digest).toBe(l.digest);
    writeFileSync(join(root, 'gitmem.config.json'), '{"version":1,"layout":"default"}');
    expect((await list(root, scratch)).digest).not.toBe(l.digest);
  });

  it('a name that is not UTF-8: no stat is taken from the listing (it could stand for another file)', async () => {
    const { root, scratch } = workspace();
    const dir = join(root, 'memory');
    writeFileSync(join(dir, 'note-\uFFFD.md'), 'The gizmo uses foxtrot.\n');
    writeFileSync(
      Buffer.concat([Buffer.from(`${dir}/note-`), Buffer.from([0xff]), Buffer.from('.md')]),
      'x'.repeat(23) + '\n',
    );
    const l = await list(root, scratch);
    expect(l.stats().size).toBe(0);
  });

  it('uses the system find, never one on PATH; a find that does not finish in time gives no listing', async () => {
    const { root, scratch } = workspace();
    const bin = join(scratch, '..', 'bin');
    mkdirSync(bin);
    const fake = join(bin, 'find');
    writeFileSync(fake, '#!/bin/sh\nprintf "f 1 1.0 1.0 1 /nowhere\\0"\nexit 0\n', { mode: 0o755 });
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    try {
      const l = await list(root, scratch);
      expect(l.stats().has(join(root, 'memory', 'MEMORY.md'))).toBe(true);
    } finally {
      process.env.PATH = path;
    }
    // A find that prints another root's listing is not trusted either.
    const other = runListing(root, scratch, { find: fake })!;
    other.ref();
    expect((await other.done)?.digest).toBeUndefined();
    const slow = join(bin, 'slow-find');
    writeFileSync(slow, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    const t0 = Date.now();
    const run = runListing(root, scratch, { find: slow, timeoutMs: 300 })!;
    run.ref();
    expect(await run.done).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('a find that keeps printing past the stall limit is waited for (a loaded machine), and its listing used', async () => {
    const { root, scratch } = workspace();
    const bin = join(scratch, '..', 'bin');
    mkdirSync(bin);
    // Prints a folder record every 0.1 s for about 2.5 s, then the real listing: never 2 s without output.
    const dribbling = join(bin, 'dribbling-find');
    writeFileSync(
      dribbling,
      `#!/bin/sh\ni=0\nwhile [ $i -lt 25 ]; do printf 'd 4096 1.0 1.0 %s %s/memory\\0' $i "$1"; i=$((i+1)); sleep 0.1; done\nexec /usr/bin/find "$@"\n`,
      { mode: 0o755 },
    );
    const t0 = Date.now();
    const run = runListing(root, scratch, { find: dribbling, timeoutMs: 2000 })!;
    run.ref();
    const l = await run.done;
    expect(Date.now() - t0).toBeGreaterThan(2000);
    expect(l?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(l!.stats().has(join(root, 'memory', 'MEMORY.md'))).toBe(true);
  });

  it('a root that does not exist: find fails, no listing', async () => {
    const { scratch } = workspace();
    const run = runListing(join(scratch, 'missing'), scratch)!;
    run.ref();
    const l = await run.done;
    // find exits 1 (no such folder): nothing listed and nothing vouched for.
    expect(l?.digest).toBeUndefined();
    expect(l?.stats().size ?? 0).toBe(0);
  });
});

describe('parseFindRecords', () => {
  const rec = (t: string, rest: string) => `${t} ${rest}\0`;
  it('reads sizes, exact times and inodes; drops other types, malformed and cut-off records', () => {
    const text =
      rec('f', '12 1700000000.1234567890 1700000001.5000000000 42 /w/a.md') +
      rec('d', '4096 1700000000.0000000000 1700000000.0000000000 7 /w/memory') +
      rec('f', 'x 1700000000.1 1700000000.1 43 /w/bad.md') +
      rec('f', '5 1700000000 1700000000 44 /w/whole seconds.md') +
      'f 9 1700000000.1 1700000000.1 45 /w/cut.md';
    const m = parseFindRecords(Buffer.from(text), 99);
    expect([...m.keys()]).toEqual(['/w/a.md', '/w/whole seconds.md']);
    const a = m.get('/w/a.md')!;
    expect(a.size).toBe(12);
    expect(a.mtimeMs).toBe(1700000000 * 1e3 + 123456789 / 1e6);
    expect(a.takenAt).toBe(99);
    expect(m.get('/w/whole seconds.md')!.mtimeMs).toBe(1700000000 * 1e3);
  });

  it('names that are not ASCII are read as UTF-8', () => {
    const m = parseFindRecords(Buffer.from(rec('f', '1 1.0 1.0 1 /w/café ü.md')), 0);
    expect([...m.keys()]).toEqual(['/w/café ü.md']);
  });

  it('listingDigest: one per root and listing; none for a cut-off listing or one with another kind of entry', () => {
    const ok = Buffer.from(rec('d', '4096 1.0 1.0 7 /w/memory') + rec('f', '1 1.0 1.0 8 /w/memory/a.md'));
    const d = listingDigest(ok, '/w');
    expect(d).toMatch(/^[0-9a-f]{64}$/);
    expect(listingDigest(Buffer.from(ok), '/w')).toBe(d);
    expect(listingDigest(ok, '/v')).not.toBe(d);
    expect(listingDigest(Buffer.alloc(0), '/w')).toMatch(/^[0-9a-f]{64}$/);
    expect(listingDigest(ok.subarray(0, ok.length - 1), '/w')).toBeUndefined();
    for (const other of ['!' + rec('l', '9 1.0 1.0 9 /w/memory/link.md'), '!' + rec('p', '0 1.0 1.0 9 /w/fifo')]) {
      expect(listingDigest(Buffer.from(rec('d', '4096 1.0 1.0 7 /w/m') + other), '/w')).toBeUndefined();
      expect(listingDigest(Buffer.from(other + rec('d', '4096 1.0 1.0 7 /w/m')), '/w')).toBeUndefined();
    }
  });
});
