// Bad input R23 (docs/bad-inputs.md): a full disk. A real one: a 512 KB tmpfs mounted in a private
// mount namespace (`unshare -rm`, which needs no root where user namespaces are allowed), holding a
// git workspace with a built index, then filled to the last byte. Every writing command then fails
// with a non-zero status and says the disk is full; the memory files are byte-identical; no temporary
// or lock file is left in the memory folders (before: `..<file>.lock.<pid>.<hex>.tmp` stayed); and
// `index` names the full disk instead of hinting "make that folder writable".
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, requireBuiltCli, tempDir } from '../../support/fixtures.js';

let root: string;
/** What the script printed: `=== name` sections. */
const sections = new Map<string, string>();

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The commands run once the disk is full, by section name. */
const WRITES: Record<string, string> = {
  remember: `remember 'the billing webhook retries five times' --json`,
  append: `append 'a note the full disk refuses' --json`,
  'state set': `state set --step 'step the full disk refuses' --json`,
  'complete-task': `complete-task --input "$ROOT/task.json" --json`,
  index: `index --rebuild`,
};

beforeAll(() => {
  requireBuiltCli();
  root = tempDir('gitmem-full-disk-');
  const gm = (args: string) => `${q(process.execPath)} ${q(CLI)} --dir "$ROOT/disk/ws" ${args}`;
  const script = [
    'set -u',
    `ROOT=${q(root)}`,
    'mkdir -p "$ROOT/disk"',
    'mount -t tmpfs -o size=512k tmpfs "$ROOT/disk"',
    'cd "$ROOT/disk" && mkdir ws && cd ws && git init -q -b main',
    `printf '%s' '{"version":1,"layout":"default"}' > gitmem.config.json`,
    'mkdir -p memory/entries',
    `printf '# Memory\\n\\n- the first fact\\n' > memory/MEMORY.md`,
    `printf '# Current state\\n\\n## Objective\\nShip it\\n' > memory/CURRENT_STATE.md`,
    `printf -- '- 09:00 started\\n' > memory/2024-03-01.md`,
    `printf '%s' '{"goal":"g","result":"the queue drains nightly","tool_usage":[]}' > "$ROOT/task.json"`,
    'git add -A && git commit -qm initial',
    `${gm('init')} >/dev/null 2>&1`,
    `${gm('index')} >/dev/null 2>&1`,
    'git add -A && git commit -qm init >/dev/null 2>&1',
    'sha256sum memory/*.md memory/*/*.md 2>/dev/null | sort > "$ROOT/before"',
    // Fill the disk to its last block.
    'dd if=/dev/zero of="$ROOT/disk/fill" bs=4k >/dev/null 2>&1',
    'cat /dev/zero > "$ROOT/disk/fill2" 2>/dev/null',
    'echo "=== free"; df -k "$ROOT/disk" | tail -1',
    ...Object.entries(WRITES).map(([name, args]) => `echo "=== ${name}"; ${gm(args)} 2>&1; echo "status=$?"`),
    'echo "=== leftovers"; find memory -type f \\( -name "*.tmp" -o -name "*.lock*" -o -name ".gitmem-*" \\)',
    'echo "=== changed"; sha256sum memory/*.md memory/*/*.md 2>/dev/null | sort | diff "$ROOT/before" - && echo none',
    'echo "=== end"',
  ].join('\n');
  const r = spawnSync('unshare', ['-rm', 'bash', '-c', script], {
    encoding: 'utf8',
    env: {
      ...process.env,
      NO_COLOR: '1',
      GITMEM_NO_HOST: '1',
      GITMEM_MODEL_DIR: join(root, 'no-model'),
      GIT_AUTHOR_NAME: 'Disk Test',
      GIT_AUTHOR_EMAIL: 'disk@example.com',
      GIT_COMMITTER_NAME: 'Disk Test',
      GIT_COMMITTER_EMAIL: 'disk@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
    },
    timeout: 240_000,
  });
  if (r.error) throw r.error;
  const out = r.stdout;
  if (process.env.GITMEM_DEBUG_FULL_DISK) console.log(out);
  if (!out.includes('=== end')) throw new Error(`the full-disk script did not finish:\n${out}\n${r.stderr}`);
  for (const part of out.split(/^=== /m).slice(1)) {
    const nl = part.indexOf('\n');
    sections.set(part.slice(0, nl), part.slice(nl + 1));
  }
}, 300_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a full disk (R23)', () => {
  it('is really full', () => {
    expect(sections.get('free')).toMatch(/\s0\s+100%/);
  });

  it.each(Object.keys(WRITES).filter((n) => n !== 'index'))('%s fails, exit 1, and names the full disk', (name) => {
    const text = sections.get(name)!;
    expect(text).toMatch(/status=1\s*$/);
    expect(text).toMatch(/the disk is full \(ENOSPC/);
    expect(text).toMatch(/free some space on the disk/);
    expect(text).not.toMatch(/writable/);
  });

  it('index names the full disk, not a folder to make writable', () => {
    const text = sections.get('index')!;
    expect(text).toMatch(/status=1\s*$/);
    expect(text).toMatch(/ENOSPC|no space left/i);
    expect(text).toMatch(/free some space on the disk/);
    expect(text).not.toMatch(/make that folder writable/);
  });

  it('leaves no temporary or lock file in the memory folders and changes no memory file', () => {
    expect(sections.get('leftovers')!.trim()).toBe('');
    expect(sections.get('changed')!.trim()).toBe('none');
  });
});
