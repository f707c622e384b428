// Every shell command in README.md runs as written in a fresh clone. Each ```sh block carries a
// `<!-- readme-test: … -->` line saying where it runs:
//   clone   — in a fresh `git clone` of this repository (node_modules linked from this checkout, since
//             `npm ci` and `npm run setup` need the registry; `npm test` is this suite itself);
//   project — in a fresh git repository, with `gitmem` on the PATH being the clone's dist/cli.cjs;
//   skip    — not run, for the reason the marker gives (the network, a remote, an editor).
// A block without a marker fails the test, so a new README command cannot go untested silently.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, git, tempDir } from '../../support/fixtures.js';

const README = readFileSync(join(REPO, 'README.md'), 'utf8');

interface Block {
  readonly where: 'clone' | 'project' | 'skip';
  readonly reason: string;
  readonly lines: string[];
}

/** The README's sh blocks with their markers; commands without comments, one per line. */
function blocks(): Block[] {
  const out: Block[] = [];
  const re = /(?:<!-- readme-test: (\w+)(?: \(([^)]*)\))? -->\n)?```sh\n([\s\S]*?)```/g;
  for (const m of README.matchAll(re)) {
    const lines = m[3]!
      .split('\n')
      .map((l) => l.replace(/\s+#\s.*$/, '').trim())
      .filter((l) => l && !l.startsWith('#'));
    out.push({ where: (m[1] ?? 'none') as Block['where'], reason: m[2] ?? '', lines });
  }
  return out;
}

/** Parts of a command that need the network or are this suite (`npm test`): not run, said in the header. */
const NOT_RUN = [/^(ONNXRUNTIME_NODE_INSTALL=skip )?npm ci\b/, /^npm run setup\b/, /^npm test$/];

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

function sh(command: string, cwd: string, env: Record<string, string>) {
  const r = spawnSync('sh', ['-c', command], {
    cwd,
    env: { ...process.env, ...IDENTITY, GITMEM_NO_HOST: '1', NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe('README', () => {
  it('has at most 250 lines and a marker on every sh block', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(250);
    const all = blocks();
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const b of all) {
      expect(['clone', 'project', 'skip'], b.lines.join('; ')).toContain(b.where);
      if (b.where === 'skip') expect(b.reason, b.lines.join('; ')).not.toBe('');
    }
  });

  it('runs its commands as written in a fresh clone', () => {
    const base = tempDir();
    made.push(base);
    const clone = join(base, 'gitmem');
    git(base, 'clone', '-q', REPO, clone);
    symlinkSync(join(REPO, 'node_modules'), join(clone, 'node_modules'));
    const env = { ONNXRUNTIME_NODE_INSTALL: 'skip' };

    let ran = 0;
    for (const b of blocks().filter((x) => x.where === 'clone'))
      for (const line of b.lines)
        for (const part of line.split(' && ')) {
          if (NOT_RUN.some((re) => re.test(part))) continue;
          const r = sh(part, clone, env);
          expect(r.code, `${part}\n${r.stderr}`).toBe(0);
          if (part === 'npm run demo') expect(r.stdout).toContain('verify-webhooks-before-parsing');
          ran++;
        }
    expect(ran).toBeGreaterThanOrEqual(2); // build and demo

    // the agent quick start, in a fresh project with this clone's gitmem on the PATH
    const bin = join(base, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'gitmem'),
      `#!/bin/sh\nexec "${process.execPath}" "${join(clone, 'dist', 'cli.cjs')}" "$@"\n`,
    );
    chmodSync(join(bin, 'gitmem'), 0o755);
    const projectDir = join(base, 'project');
    mkdirSync(projectDir);
    git(projectDir, 'init', '-q');
    const penv = { PATH: `${bin}:${process.env.PATH}`, GITMEM_MODEL_DIR: join(base, 'no-model') };
    const outputs: string[] = [];
    for (const b of blocks().filter((x) => x.where === 'project'))
      for (const line of b.lines) {
        const r = sh(line, projectDir, penv);
        expect(r.code, `${line}\n${r.stderr}`).toBe(0);
        outputs.push(r.stdout);
      }
    expect(outputs.join('\n')).toContain('### Recalled Context');
    expect(readFileSync(join(projectDir, '.claude', 'settings.json'), 'utf8')).toContain('gitmem hook prompt');
  });
});
