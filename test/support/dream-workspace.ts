// The workspaces of the dream tests: daily notes that repeat one lesson, so a dream pass proposes
// it (a promotion into MEMORY.md), in a Fusion workspace in git for the scheduled-dream tests
// (`gitmem watch`, the language server) or written into a default-layout workspace.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, tempDir } from './fixtures.js';

/**
 * `<temp>/ws` (the temp folder named by `prefix`; the caller removes it): the Fusion layout, no model,
 * the `insightExtraction*` `settings` in its config, MEMORY.md and two daily notes, all committed.
 */
export function fusionDreamWorkspace(prefix: string, settings: Record<string, unknown>): string {
  const root = join(tempDir(prefix), 'ws');
  const mem = join(root, '.fusion', 'memory');
  mkdirSync(mem, { recursive: true });
  writeFileSync(
    join(root, 'gitmem.config.json'),
    JSON.stringify({ version: 1, layout: 'fusion', model: { enabled: false }, ...settings }),
  );
  writeFileSync(join(mem, 'MEMORY.md'), '# Memory\n\n- The release checklist lives in docs/release.md.\n');
  writeFileSync(
    join(mem, '2026-11-20.md'),
    '# 2026-11-20\n\n- 09:10 The nightly importer fails when the vendor CSV starts with a byte order mark; strip it before parsing.\n',
  );
  writeFileSync(
    join(mem, '2026-11-25.md'),
    '# 2026-11-25\n\n- 14:02 Nightly importer failed again: the vendor CSV had a byte order mark, stripping it before parsing fixed it.\n',
  );
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'fusion memory');
  return root;
}

/**
 * Two daily notes of `root` (default layout: memory/2026-11-27.md and 2026-11-28.md) that repeat one
 * lesson, the staging database's Sunday restart: `gitmem dream` proposes promoting it.
 */
export function writeRepeatedLesson(root: string): void {
  writeFileSync(
    join(root, 'memory/2026-11-27.md'),
    '# 2026-11-27\n\n- The staging database restarts every Sunday at 03:00 UTC for maintenance.\n',
  );
  writeFileSync(
    join(root, 'memory/2026-11-28.md'),
    '# 2026-11-28\n\n- Nightly jobs failed: staging database restarts on Sunday for maintenance.\n',
  );
}
