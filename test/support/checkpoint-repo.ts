// Test support: a real git repository for the checkpoint and history tests (test/integration/git/),
// and the checkpoint options they share (pinned author and time, no identity from the machine).
import type { CheckpointOptions } from '../../src/git/checkpoint.js';
import type { MemoryScope } from '../../src/git/repo.js';
import { git, tempDir, write } from './fixtures.js';

export const PINNED = { seconds: 1_796_040_000, timezoneOffset: 0 }; // 2026-11-30T12:00:00Z
export const AUTHOR = { name: 'Agent', email: 'agent@example.com' };
/** No environment and a home folder that does not exist: no identity leaks in from the machine. */
export const NO_ENV = { env: {}, home: '/nonexistent-home' };

/** The memory scope of a workspace at `prefix` in the work tree: MEMORY.md and `<memoryDir>/**.md`. */
export function scopeFor(prefix = '', memoryDir = 'memory'): MemoryScope {
  return {
    prefix,
    accept: (p) => p.endsWith('.md') && (p === 'MEMORY.md' || p.startsWith(`${memoryDir}/`)),
    descend: (d) => d !== 'node_modules',
  };
}

/** A repository with one commit holding a README, a source file and a memory entry. @returns its work tree. */
export function makeRepo(): string {
  const dir = tempDir('gitmem-git-');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.name', 'Repo User');
  git(dir, 'config', 'user.email', 'repo@example.com');
  write(dir, 'README.md', '# project\n');
  write(dir, 'src/app.ts', 'export const a = 1;\n');
  write(dir, 'memory/MEMORY.md', '# Memory\n\n- we use lunr for keyword search\n');
  write(dir, 'memory/entries/use-lunr.md', '---\nid: use-lunr\ntype: decision\n---\nWe picked lunr.\n');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'initial');
  return dir;
}

/** Checkpoint options with the pinned author and time and no machine identity, plus `extra`. */
export const opts = (extra: Partial<CheckpointOptions> = {}): CheckpointOptions => ({
  scope: scopeFor(),
  author: AUTHOR,
  timestamp: PINNED,
  identity: NO_ENV,
  ...extra,
});
