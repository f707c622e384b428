// Repository shapes (issue 42, docs/bad-inputs.md R01-R06): the same script — write a memory
// (`remember`), `checkpoint`, `sync`, `recall` it — on each git setup people really have, each with its
// own bare remote, then a second full clone of that remote checks the result. Per shape it prints
// writes made, writes found in the other clone, unexpected deletions (a memory file of the remote
// whose content is in no file of the remote afterwards, renames allowed), false successes (a command
// that exited 0 for work that is not done: a sync whose write the other clone lacks, a recall that
// misses the write, a checkpoint that changed a file git status does not show) and the reason of a
// refusal. Lost: a write that is neither in the other clone nor, after a named refusal, still in the
// shape's own work tree. Real `node dist/cli.cjs` and real git.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, listFiles, marker, printFigures, removeDir, rng, runCliSync, tempDir } from './common.js';

export interface ShapeRow {
  readonly shape: string;
  readonly writes: number;
  readonly found: number;
  readonly deletions: number;
  readonly falseSuccesses: number;
  readonly lost: number;
  /** `code: message` of the first refusal, or '' when every step succeeded. */
  readonly refusal: string;
  /** What went wrong with the harness itself (a setup step failed). */
  readonly problems: readonly string[];
}

export interface ShapesFigures {
  readonly rows: readonly ShapeRow[];
  readonly writes: number;
  readonly found: number;
  readonly lost: number;
  readonly deletions: number;
  readonly falseSuccesses: number;
  /** Refusals that named no reason (no error code or message). */
  readonly unnamedRefusals: number;
  readonly failures: readonly string[];
  readonly ms: number;
}

/** The seed every remote starts from: memory at the root layout, a team folder, gitmem's config. */
const SEED: Readonly<Record<string, string>> = {
  'memory/MEMORY.md': '# Memory\n\n- the team keeps shared facts here\n',
  'memory/team/n1.md': '# Team note 1\n\nDeploys go out on Tuesdays.\n',
  'memory/team/n2.md': '# Team note 2\n\nThe staging database is reset nightly.\n',
  'memory/team/n3.md': '# Team note 3\n\nOn-call rotates every Monday.\n',
  'memory/entries/.gitkeep': '',
  'src/app.txt': 'application code\n',
  'gitmem.config.json': '{ "model": { "enabled": false } }\n',
};

interface Shape {
  readonly name: string;
  /**
   * Make the shape's work tree from `remote` inside `base`; @returns the gitmem workspace folder.
   * Files it deletes or renames on purpose are listed in `intended` (seed paths).
   */
  make(base: string, remote: string): string;
}

const ok = (r: { code: number; out: string }, what: string): void => {
  if (r.code !== 0) throw new Error(`${what}: ${r.out.trim().split('\n').slice(-2).join(' | ')}`);
};

const clone = (base: string, remote: string, name: string, ...flags: string[]): string => {
  const dir = join(base, name);
  ok(git(base, 'clone', '-q', ...flags, remote, dir), `git clone ${flags.join(' ')}`);
  return dir;
};

/** A clone with an operation (`merge`, `rebase`, `cherry-pick`) stopped on a conflict in src/app.txt. */
function stoppedOperation(op: 'merge' | 'rebase' | 'cherry-pick'): Shape {
  return {
    name: `${op} in progress`,
    make(base, remote) {
      const dir = clone(base, remote, 'ws');
      ok(git(dir, 'checkout', '-q', '-b', 'side'), 'branch');
      writeFileSync(join(dir, 'src/app.txt'), 'side change\n');
      ok(git(dir, 'commit', '-qam', 'side'), 'commit side');
      ok(git(dir, 'checkout', '-q', 'main'), 'checkout main');
      writeFileSync(join(dir, 'src/app.txt'), 'main change\n');
      ok(git(dir, 'commit', '-qam', 'main'), 'commit main');
      const args = op === 'merge' ? ['merge', 'side'] : op === 'rebase' ? ['rebase', 'side'] : ['cherry-pick', 'side'];
      const r = git(dir, ...args);
      if (r.code === 0) throw new Error(`${op} did not stop on a conflict`);
      return dir;
    },
  };
}

const SHAPES: readonly Shape[] = [
  {
    name: 'full clone (baseline)',
    make: (base, remote) => clone(base, remote, 'ws'),
  },
  {
    name: 'sparse cone',
    make(base, remote) {
      const dir = clone(base, remote, 'ws', '--no-checkout');
      ok(git(dir, 'sparse-checkout', 'set', '--cone', 'memory/entries'), 'sparse-checkout');
      ok(git(dir, 'checkout', '-q', 'main'), 'checkout');
      return dir;
    },
  },
  {
    name: 'partial clone (blob:none)',
    make: (base, remote) => clone(base, remote.replace(/^/, 'file://'), 'ws', '--filter=blob:none'),
  },
  {
    name: 'skip-worktree files',
    make(base, remote) {
      const dir = clone(base, remote, 'ws');
      ok(git(dir, 'update-index', '--skip-worktree', 'memory/team/n1.md'), 'skip-worktree');
      rmSync(join(dir, 'memory/team/n1.md'));
      ok(git(dir, 'update-index', '--assume-unchanged', 'memory/team/n2.md'), 'assume-unchanged');
      writeFileSync(join(dir, 'memory/team/n2.md'), '# Team note 2\n\nA local edit git does not show.\n');
      return dir;
    },
  },
  {
    name: 'submodule workspace',
    make(base, remote) {
      const sup = join(base, 'super');
      mkdirSync(sup);
      ok(git(sup, 'init', '-q', '-b', 'main'), 'init super');
      ok(git(sup, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', remote, 'mem'), 'submodule add');
      ok(git(sup, 'commit', '-qm', 'add memory submodule'), 'commit super');
      const dir = join(sup, 'mem');
      ok(git(dir, 'checkout', '-q', 'main'), 'checkout main in the submodule');
      return dir;
    },
  },
  {
    name: 'linked worktree',
    make(base, remote) {
      const main = clone(base, remote, 'primary');
      ok(git(main, 'checkout', '-q', '-b', 'elsewhere'), 'branch');
      const dir = join(base, 'ws');
      ok(git(main, 'worktree', 'add', '-q', dir, 'main'), 'worktree add');
      return dir;
    },
  },
  {
    name: 'symlinked memory folder',
    make(base, remote) {
      const dir = clone(base, remote, 'ws');
      renameSync(join(dir, 'memory'), join(dir, 'real-memory'));
      symlinkSync('real-memory', join(dir, 'memory'));
      return dir;
    },
  },
  {
    name: 'shallow clone',
    make: (base, remote) => clone(base, `file://${remote}`, 'ws', '--depth', '1'),
  },
  {
    name: 'detached HEAD',
    make(base, remote) {
      const dir = clone(base, remote, 'ws');
      ok(git(dir, 'checkout', '-q', '--detach'), 'detach');
      return dir;
    },
  },
  stoppedOperation('rebase'),
  stoppedOperation('merge'),
  stoppedOperation('cherry-pick'),
  {
    name: 'core.autocrlf=true',
    make: (base, remote) => clone(base, remote, 'ws', '-c', 'core.autocrlf=true'),
  },
  {
    name: 'case-only rename, ignorecase',
    make(base, remote) {
      const dir = clone(base, remote, 'ws', '-c', 'core.ignorecase=true');
      renameSync(join(dir, 'memory/team/n3.md'), join(dir, 'memory/team/N3.md'));
      return dir;
    },
  },
  {
    name: '.gitattributes filter',
    make(base, remote) {
      const dir = clone(base, remote, 'ws');
      // A clean/smudge pair: the repository stores "Tuesdays", the work tree shows "TUESDAYS".
      ok(git(dir, 'config', 'filter.shout.clean', 'sed -e s/TUESDAYS/Tuesdays/'), 'filter clean');
      ok(git(dir, 'config', 'filter.shout.smudge', 'sed -e s/Tuesdays/TUESDAYS/'), 'filter smudge');
      writeFileSync(join(dir, '.git/info/attributes'), 'memory/team/n1.md filter=shout\n');
      rmSync(join(dir, 'memory/team/n1.md'));
      ok(git(dir, 'checkout', '--', 'memory/team/n1.md'), 'smudge n1');
      if (!readFileSync(join(dir, 'memory/team/n1.md'), 'utf8').includes('TUESDAYS'))
        throw new Error('the smudge filter did not run');
      return dir;
    },
  },
];

/** Blob ids of every memory file at the tip of `main` in `gitdir` (path → oid). */
function memoryBlobs(cwd: string, rev: string): Map<string, string> {
  const out = new Map<string, string>();
  const r = git(cwd, 'ls-tree', '-r', rev, '--', 'memory');
  for (const line of r.out.split('\n')) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line);
    if (m) out.set(m[2]!, m[1]!);
  }
  return out;
}

const errorOf = (json: any): { code: string; message: string } | undefined =>
  json && typeof json === 'object' && json.error ? json.error : undefined;

function runShape(shape: Shape, seedRemote: string, rand: () => number): ShapeRow {
  const base = tempDir('gitmem-shape-');
  const problems: string[] = [];
  let writes = 0;
  let found = 0;
  let deletions = 0;
  let falseSuccesses = 0;
  let lost = 0;
  let refusal = '';
  try {
    const remote = join(base, 'r.git');
    ok(git(base, 'clone', '-q', '--bare', seedRemote, remote), 'clone the seed');
    ok(git(remote, 'config', 'uploadpack.allowFilter', 'true'), 'allowFilter');
    const before = memoryBlobs(remote, 'main');
    const ws = shape.make(base, remote);
    const gitStatusBefore = git(ws, 'status', '--porcelain').out;
    const word = marker(rand, 'zqshape');
    const text = `${word} shape memory written by the harness`;
    const refuse = (step: string, r: ReturnType<typeof runCliSync>) => {
      const e = errorOf(r.json);
      refusal ||= e?.code && e.message ? `${step}: ${e.code}: ${e.message}` : `${step}: (no reason) ${r.stderr.trim()}`;
    };
    const w = runCliSync(ws, ['remember', '--json', text]);
    if (w.code === 0) writes++;
    else refuse('remember', w);
    const written: string | undefined = w.code === 0 ? w.json?.path : undefined;
    const cp = runCliSync(ws, ['checkpoint', '--json']);
    if (cp.code !== 0) refuse('checkpoint', cp);
    else if (cp.json?.kind === 'committed') {
      // A checkpoint commits only what git status showed, plus the write.
      const shown = new Set(
        gitStatusBefore
          .split('\n')
          .filter(Boolean)
          .map((l) => l.slice(3)),
      );
      const changes = cp.json.changes as { added: string[]; modified: string[]; deleted: string[] };
      for (const p of [...changes.added, ...changes.modified, ...changes.deleted])
        if (p !== written && !shown.has(p)) falseSuccesses++;
    }
    const sync = runCliSync(ws, ['sync', '--json']);
    if (sync.code !== 0) refuse('sync', sync);
    const recall = runCliSync(ws, ['recall', '--mode', 'keyword', '--json', word]);
    if (w.code === 0 && (recall.code !== 0 || !JSON.stringify(recall.json?.results ?? []).includes(word)))
      falseSuccesses++;
    // The other clone.
    const checker = clone(base, remote, 'checker');
    const files = listFiles(checker).filter((f) => f.startsWith('memory/'));
    const inChecker = files.some((f) => readFileSync(join(checker, f), 'utf8').includes(word));
    if (w.code === 0 && inChecker) found++;
    if (w.code === 0 && !inChecker) {
      if (sync.code === 0) falseSuccesses++;
      // Not lost when a step refused with its reason and the write is still in the shape's work tree.
      const local = written && existsSync(join(ws, written)) && readFileSync(join(ws, written), 'utf8').includes(word);
      if (!(refusal && local)) lost++;
    }
    const after = new Set(memoryBlobs(checker, 'HEAD').values());
    for (const [path, oid] of before) if (!after.has(oid) && !path.endsWith('.gitkeep')) deletions++;
  } catch (e) {
    problems.push(`${shape.name}: ${(e as Error).message}`);
  } finally {
    removeDir(base);
  }
  return { shape: shape.name, writes, found, deletions, falseSuccesses, lost, refusal, problems };
}

/** The seed remote every shape clones (bare, branch main). */
function seedRemote(dir: string): string {
  const work = join(dir, 'seed');
  mkdirSync(work, { recursive: true });
  ok(git(work, 'init', '-q', '-b', 'main'), 'init seed');
  for (const [p, t] of Object.entries(SEED)) {
    mkdirSync(join(work, p, '..'), { recursive: true });
    writeFileSync(join(work, p), t);
  }
  ok(git(work, 'add', '-A'), 'add seed');
  ok(git(work, 'commit', '-qm', 'seed memory'), 'commit seed');
  const remote = join(dir, 'seed.git');
  ok(git(dir, 'clone', '-q', '--bare', work, remote), 'bare seed');
  return remote;
}

export async function runShapes(
  options: { seed?: number; only?: readonly string[]; log?: (s: string) => void } = {},
): Promise<ShapesFigures> {
  const t0 = performance.now();
  const rand = rng(options.seed ?? 42);
  const dir = tempDir('gitmem-shapes-');
  const rows: ShapeRow[] = [];
  try {
    const seed = seedRemote(dir);
    for (const shape of SHAPES) {
      if (options.only?.length && !options.only.some((o) => shape.name.includes(o))) continue;
      const row = runShape(shape, seed, rand);
      options.log?.(`${shape.name}: ${JSON.stringify(row)}`);
      rows.push(row);
    }
  } finally {
    removeDir(dir);
  }
  const sum = (k: 'writes' | 'found' | 'lost' | 'deletions' | 'falseSuccesses') => rows.reduce((n, r) => n + r[k], 0);
  return {
    rows,
    writes: sum('writes'),
    found: sum('found'),
    lost: sum('lost'),
    deletions: sum('deletions'),
    falseSuccesses: sum('falseSuccesses'),
    unnamedRefusals: rows.filter((r) => r.refusal.includes('(no reason)')).length,
    failures: rows.flatMap((r) => r.problems),
    ms: performance.now() - t0,
  };
}

export function printShapes(f: ShapesFigures, log: (s: string) => void = console.log): void {
  log('\nRepository shapes (write, checkpoint, sync, recall; a second full clone checks)');
  const w = Math.max(...f.rows.map((r) => r.shape.length), 5);
  log(`  ${'shape'.padEnd(w)}  writes  found  deletions  false-ok  lost  refusal`);
  for (const r of f.rows) {
    const reason = r.problems.length ? `HARNESS: ${r.problems[0]}` : r.refusal.split('\n')[0]!.slice(0, 110);
    log(
      `  ${r.shape.padEnd(w)}  ${String(r.writes).padStart(6)}  ${String(r.found).padStart(5)}  ${String(r.deletions).padStart(9)}  ${String(r.falseSuccesses).padStart(8)}  ${String(r.lost).padStart(4)}  ${reason || '-'}`,
    );
  }
  printFigures(
    'Repository shapes: totals (goal: 0 lost, 0 unexpected deletions, 0 false successes, every refusal named)',
    [
      ['shapes', f.rows.length],
      ['writes made / found in the other clone', `${f.writes} / ${f.found}`],
      ['lost', f.lost],
      ['unexpected deletions', f.deletions],
      ['false successes', f.falseSuccesses],
      ['refusals without a reason', f.unnamedRefusals],
      ['harness failures', f.failures.length],
      ['time', `${(f.ms / 1000).toFixed(1)} s`],
    ],
    log,
  );
}
