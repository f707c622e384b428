// Incremental == rebuild: random sequences of create / edit / rename / delete / git checkout /
// restart, applied to a real git repository in a temp folder and fed to Memory.applyChanges the way
// the watcher does; after every step, keyword recall over a query set equals that of a Memory built
// from scratch (same refs, same order, same scores). Small compaction threshold, so inline folds run.
// The second property is the one-shot path: no file events at all, every step opens a new `scan`
// Memory (as each CLI call does) whose stat walk must find what changed: same-size rewrites within
// one second, rewrites whose mtime is put back, files aged past the racy window, real git checkouts.
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  renameSync,
  statSync,
  utimesSync,
  writeFileSync,
  existsSync,
} from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { RelPath } from '../../../src/core/paths.js';
import { WALK_DIGEST_NAME } from '../../../src/engine/freshness/walk-digest.js';
import { createIndexStorage } from '../../../src/platform/index-storage.js';
import { runListing, type PrefetchedListing } from '../../../src/platform/listing-prefetch.js';
import { createNodeFs } from '../../../src/platform/node-fs.js';
import { createMemory, type Memory } from '../../../src/service/memory.js';
import { git, tempDir, initRepoOnMain } from '../../support/fixtures.js';
import { recall } from '../../../src/service/recall/recall.js';

const WORDS = [
  'deploy',
  'deploys',
  'database',
  'migration',
  'retry',
  'retries',
  'webhook',
  'getUserName',
  'café',
  'pool',
  'pooling',
  'general',
  'happy',
  'json',
  'lunr',
  'index',
  'zeppelin',
  'checkout',
  'rebase',
];
const QUERIES = [
  'deploy',
  'dep*',
  'retry webhook',
  '+database pool',
  'pool -json',
  'getUserName',
  'user*',
  'café',
  'gen*',
  'happ*',
  'zeppelin',
  'index lunr',
  'checkout rebase migration',
];
const NAMES = [
  'MEMORY.md',
  'entries/a.md',
  'entries/b.md',
  'entries/c.md',
  '2026-01-01.md',
  '2026-01-02.md',
  'notes/x.md',
  'notes/y.md',
];

type Op =
  | { op: 'write'; name: string; words: string[]; typed: boolean }
  | { op: 'rename'; from: string; to: string }
  | { op: 'delete'; name: string }
  | { op: 'checkout' }
  | { op: 'restart' };

const wordsArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 14 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('write' as const),
      name: fc.constantFrom(...NAMES),
      words: wordsArb,
      typed: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('rename' as const),
      from: fc.constantFrom(...NAMES),
      to: fc.constantFrom(...NAMES),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), name: fc.constantFrom(...NAMES) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'checkout' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'restart' as const }) },
);

function body(words: string[], typed: boolean, name: string): string {
  const lines = words.reduce<string[][]>((acc, w, i) => {
    if (i % 4 === 0) acc.push([]);
    acc[acc.length - 1]!.push(w);
    return acc;
  }, []);
  const text = lines.map((l) => `- ${l.join(' ')}`).join('\n');
  if (typed && name.startsWith('entries/')) {
    return `---\nid: ${name.slice(8, -3)}\ntype: learning\ntitle: ${words.slice(0, 2).join(' ')}\ntags: [${words[0]}]\ncreated: 2026-01-01\n---\n\n# ${words[0]}\n\n${text}\n`;
  }
  return `# ${words[0]}\n\n${text}\n\n${words.join(' ')}\n`;
}

/** All memory files under memory/ (relative to the workspace root). */
function listMemory(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, rel: string) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name), `${rel}${e.name}/`);
      else if (e.name.endsWith('.md')) out.push(`${rel}${e.name}`);
    }
  };
  walk(join(root, 'memory'), 'memory/');
  return out.sort();
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/**
 * The listing a CLI process takes at its start (platform/listing-prefetch.ts, Linux): its stats
 * stand in for the walk's, and its digest lets an unchanged workspace skip the walk.
 */
function listingNow(root: string): Promise<PrefetchedListing | undefined> | undefined {
  if (process.platform !== 'linux') return undefined;
  const scratch = tempDir('gitmem-prop-listing-');
  dirs.push(scratch);
  const run = runListing(root, scratch);
  run?.ref();
  return run?.done;
}

async function open(
  root: string,
  indexDir: string,
  freshness: 'manual' | 'scan' = 'manual',
  listed = false,
  debug?: (line: string) => void,
): Promise<Memory> {
  const listing = listed ? listingNow(root) : undefined;
  const quiet = () => undefined;
  return createMemory({
    fs: createNodeFs(root, listing ? { listing } : {}),
    ...(debug ? { logger: { debug, info: quiet, warn: quiet, error: quiet } } : {}),
    openStorage: () => createIndexStorage(indexDir),
    freshness,
    lexicalWorker: false,
    liveIndex: { compactAt: 12 },
  });
}

async function expectSameRecall(inc: Memory, root: string): Promise<void> {
  const scratch = tempDir('gitmem-prop-idx-');
  dirs.push(scratch);
  const fresh = await open(root, join(scratch, 'i'));
  try {
    await fresh.index();
    for (const q of QUERIES) {
      const a = await recall(inc.context, q, { mode: 'keyword', limit: 50 });
      const b = await recall(fresh.context, q, { mode: 'keyword', limit: 50 });
      expect(
        a.results.map((r) => [r.path, r.startLine, r.score]),
        q,
      ).toEqual(b.results.map((r) => [r.path, r.startLine, r.score]));
    }
  } finally {
    await fresh.dispose();
  }
}

describe('incremental index equals a full rebuild', () => {
  it('property: create / edit / rename / delete / checkout / restart sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 10 }), async (ops) => {
        const base = tempDir('gitmem-prop-');
        dirs.push(base);
        const root = join(base, 'ws');
        mkdirSync(join(root, 'memory', 'entries'), { recursive: true });
        writeFileSync(
          join(root, 'gitmem.config.json'),
          JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } }),
        );
        writeFileSync(join(root, 'memory', 'MEMORY.md'), body(['lunr', 'index', 'deploy'], false, 'MEMORY.md'));
        initRepoOnMain(root, 'main');
        // Branch `other`: a different set of notes.
        git(root, 'checkout', '-q', '-b', 'other');
        writeFileSync(
          join(root, 'memory', 'entries', 'a.md'),
          body(['zeppelin', 'checkout', 'rebase'], true, 'entries/a.md'),
        );
        writeFileSync(join(root, 'memory', 'MEMORY.md'), body(['checkout', 'pool', 'json'], false, 'MEMORY.md'));
        git(root, 'add', '-A');
        git(root, 'commit', '-q', '-m', 'other');
        git(root, 'checkout', '-q', 'main');
        const indexDir = join(base, 'index');
        let mem = await open(root, indexDir);
        await mem.index();
        try {
          for (const o of ops) {
            const before = new Set(listMemory(root));
            const touched = new Set<string>();
            if (o.op === 'write') {
              const p = join(root, 'memory', o.name);
              mkdirSync(join(p, '..'), { recursive: true });
              writeFileSync(p, body(o.words, o.typed, o.name));
              touched.add(`memory/${o.name}`);
            } else if (o.op === 'rename') {
              const from = join(root, 'memory', o.from);
              if (!existsSync(from) || o.from === o.to) continue;
              mkdirSync(join(root, 'memory', o.to, '..'), { recursive: true });
              renameSync(from, join(root, 'memory', o.to));
              touched.add(`memory/${o.from}`).add(`memory/${o.to}`);
            } else if (o.op === 'delete') {
              rmSync(join(root, 'memory', o.name), { force: true });
              touched.add(`memory/${o.name}`);
            } else if (o.op === 'checkout') {
              const branch = git(root, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
              git(root, 'add', '-A');
              git(root, 'commit', '-q', '--allow-empty', '-m', 'wip');
              git(root, 'checkout', '-q', branch === 'main' ? 'other' : 'main');
              for (const p of [...before, ...listMemory(root)]) touched.add(p);
            } else {
              await mem.dispose();
              mem = await open(root, indexDir);
              // Restart: the persisted index is loaded, then reconciled with the files by the first recall.
            }
            if (touched.size) {
              const after = new Set(listMemory(root));
              const rel = [...touched] as RelPath[];
              await mem.applyChanges({
                created: rel.filter((p) => after.has(p) && !before.has(p)),
                changed: rel.filter((p) => after.has(p) && before.has(p)),
                deleted: rel.filter((p) => !after.has(p)),
              });
            }
            await expectSameRecall(mem, root);
          }
          const rep = await mem.index({ paranoid: true });
          expect(rep.paranoid?.differences).toEqual([]);
        } finally {
          await mem.dispose();
        }
      }),
      { numRuns: 12 },
    );
  });

  type ScanOp =
    | { op: 'write'; name: string; words: string[] }
    | { op: 'same-size'; name: string; keepMtime: boolean }
    | { op: 'age' }
    | { op: 'delete'; name: string }
    | { op: 'rename'; from: string; to: string }
    | { op: 'checkout' };
  const scanOpArb: fc.Arbitrary<ScanOp> = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.record({ op: fc.constant('write' as const), name: fc.constantFrom(...NAMES), words: wordsArb }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('same-size' as const),
        name: fc.constantFrom(...NAMES),
        keepMtime: fc.boolean(),
      }),
    },
    { weight: 2, arbitrary: fc.constant({ op: 'age' as const }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), name: fc.constantFrom(...NAMES) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('rename' as const),
        from: fc.constantFrom(...NAMES),
        to: fc.constantFrom(...NAMES),
      }),
    },
    { weight: 2, arbitrary: fc.constant({ op: 'checkout' as const }) },
  );

  /** Same byte length, different words: swap two distinct words of equal length, else rotate the text's letters. */
  function sameSizeRewrite(text: string): string {
    const swap: Record<string, string> = {
      deploy: 'lunrix',
      retry: 'happy',
      index: 'rebas',
      pool: 'json',
      json: 'pool',
      happy: 'retry',
    };
    for (const [a, b] of Object.entries(swap)) if (text.includes(a)) return text.replace(a, b);
    return text.replace(/[a-y]/, (c) => String.fromCharCode(c.charCodeAt(0) + 1));
  }

  it('property: one-shot stat walks see same-size rewrites, restored mtimes, racy files and git checkout', async () => {
    let digestsRecorded = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(scanOpArb, { minLength: 1, maxLength: 8 }), async (ops) => {
        const base = tempDir('gitmem-prop-scan-');
        dirs.push(base);
        const root = join(base, 'ws');
        mkdirSync(join(root, 'memory', 'entries'), { recursive: true });
        writeFileSync(
          join(root, 'gitmem.config.json'),
          JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } }),
        );
        writeFileSync(join(root, 'memory', 'MEMORY.md'), body(['lunr', 'index', 'deploy'], false, 'MEMORY.md'));
        writeFileSync(
          join(root, 'memory', 'entries', 'b.md'),
          body(['retry', 'webhook', 'pool'], true, 'entries/b.md'),
        );
        initRepoOnMain(root, 'main');
        git(root, 'checkout', '-q', '-b', 'other');
        writeFileSync(
          join(root, 'memory', 'entries', 'a.md'),
          body(['zeppelin', 'checkout', 'rebase'], true, 'entries/a.md'),
        );
        writeFileSync(join(root, 'memory', 'MEMORY.md'), body(['checkout', 'pool', 'json'], false, 'MEMORY.md'));
        writeFileSync(
          join(root, 'memory', 'entries', 'b.md'),
          body(['retry', 'webhook', 'json'], true, 'entries/b.md'),
        );
        git(root, 'add', '-A');
        git(root, 'commit', '-q', '-m', 'other');
        git(root, 'checkout', '-q', 'main');
        const indexDir = join(base, 'index');
        const old = new Date(Date.now() - 3_600_000);
        const ageAll = () => {
          for (const p of listMemory(root)) utimesSync(join(root, p), old, old);
        };
        ageAll();
        const first = await open(root, indexDir, 'scan');
        await recall(first.context, 'deploy', { mode: 'keyword' });
        await first.dispose();
        let step = 0;
        for (const o of ops) {
          if (o.op === 'write') {
            const p = join(root, 'memory', o.name);
            mkdirSync(join(p, '..'), { recursive: true });
            writeFileSync(p, body(o.words, false, o.name));
          } else if (o.op === 'same-size') {
            const p = join(root, 'memory', o.name);
            if (!existsSync(p)) continue;
            const before = statSync(p);
            const text = readFileSync(p, 'utf8');
            const next = sameSizeRewrite(text);
            expect(Buffer.byteLength(next)).toBe(Buffer.byteLength(text));
            writeFileSync(p, next);
            // The worst case for a stat cache: same size and the old mtime put back (only ctime tells).
            if (o.keepMtime) utimesSync(p, before.atime, before.mtime);
          } else if (o.op === 'age') {
            ageAll();
          } else if (o.op === 'delete') {
            rmSync(join(root, 'memory', o.name), { force: true });
          } else if (o.op === 'rename') {
            const from = join(root, 'memory', o.from);
            if (!existsSync(from) || o.from === o.to) continue;
            mkdirSync(join(root, 'memory', o.to, '..'), { recursive: true });
            renameSync(from, join(root, 'memory', o.to));
          } else {
            const branch = git(root, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
            git(root, 'add', '-A');
            git(root, 'commit', '-q', '--allow-empty', '-m', 'wip');
            git(root, 'checkout', '-q', branch === 'main' ? 'other' : 'main');
          }
          // A new one-shot process: load the persisted index, stat-walk (or skip the walk when its
          // listing is the one the last clean walk recorded), answer. Every other step lists first.
          const mem = await open(root, indexDir, 'scan', (step++ & 1) === 0);
          if (existsSync(join(indexDir, WALK_DIGEST_NAME))) digestsRecorded++;
          try {
            await expectSameRecall(mem, root);
          } finally {
            await mem.dispose();
          }
        }
        // Every run ends on the walk-skipping path, whatever the steps left: with every file older
        // than the racy window, a listed process's second walk is clean and records its listing, and
        // the next listed process answers without walking, still as a rebuild does.
        if (process.platform === 'linux') {
          ageAll();
          for (let i = 0; i < 2; i++) {
            const lines: string[] = [];
            const listed = await open(root, indexDir, 'scan', true, (l) => lines.push(l));
            try {
              await expectSameRecall(listed, root);
            } finally {
              await listed.dispose();
            }
            expect(existsSync(join(indexDir, WALK_DIGEST_NAME))).toBe(true);
            // The first process walks (the ages moved every mtime); the second answers without a walk.
            if (i === 1) expect(lines.some((l) => l.startsWith('no walk'))).toBe(true);
          }
          digestsRecorded++;
        }
        const mem = await open(root, indexDir, 'scan');
        try {
          const rep = await mem.index({ paranoid: true });
          expect(rep.paranoid?.differences).toEqual([]);
        } finally {
          await mem.dispose();
        }
      }),
      { numRuns: 10 },
    );
    // The walk-skipping path was taken in these runs (a clean walk recorded its listing).
    if (process.platform === 'linux') expect(digestsRecorded).toBeGreaterThan(0);
  }, 300_000);
});
