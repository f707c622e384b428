// Bad input B48 (docs/bad-inputs.md): file names, ids and titles come from memory files, which anyone
// who can push a commit writes. U17 made recall's human lines show control characters as symbols, but
// every other command printed them raw: `gitmem log`, `diff`, `checkpoint`, `validate`, `playbook`
// and the `skipped …` warning of `index` sent a name holding ESC [2J (clear the screen), an OSC title
// change or BEL to the terminal as they were. Every human line on stdout and stderr now shows them as
// symbols (ESC → ␛); `--json` keeps the names exact, and `get` piped into a file stays byte for byte.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, runCli, bareWorkspace, type CliRun } from '../../support/fixtures.js';

let root: string;
let ws: string;
const evilName = 'evil\u001b[2J\u001b]0;pwned\u0007.md';
const evilId = 'jitter\u001b[2Jrule';

// eslint-disable-next-line no-control-regex -- exactly what must not reach a terminal (LF aside)
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

function clean(r: CliRun): void {
  expect(r.stdout).not.toMatch(RAW_CONTROL);
  expect(r.stderr).not.toMatch(RAW_CONTROL);
}

beforeAll(() => {
  ({ root, ws } = bareWorkspace('playbook'));
  writeFileSync(join(ws, 'memory', 'MEMORY.md'), '# Memory\n\n- webhook retries use jitter\n');
  writeFileSync(join(ws, 'memory', evilName), '# Evil\n\n- a teammate named this note oddly\n');
  writeFileSync(
    join(ws, 'memory', 'playbook', 'jitter.md'),
    `---\nid: "${evilId.replace('\u001b', '\\e')}"\ncategory: workflow\ntitle: "Jitter \\a bell"\npriority: 3\nactive: true\n---\n\nAdd jitter to webhook retries.\n`,
  );
  git(ws, 'init', '-q');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '-m', 'a teammate commit');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('human output shows control characters from names as symbols (B48)', { timeout: 120_000 }, () => {
  it('log and diff', () => {
    const log = runCli(['log', '--dir', ws]);
    expect(log.code).toBe(0);
    clean(log);
    expect(log.stdout).toContain('memory/evil␛[2J␛]0;pwned␇.md');
    writeFileSync(join(ws, 'memory', 'playbook', 'jitter.md'), '# gone\n');
    const diff = runCli(['diff', 'HEAD', '--dir', ws]);
    expect(diff.code).toBe(0);
    clean(diff);
    expect(diff.stdout).toContain('jitter␛[2Jrule');
    git(ws, 'checkout', '-q', '--', 'memory/playbook/jitter.md');
  });

  it('playbook and validate', () => {
    const pb = runCli(['playbook', '--dir', ws]);
    expect(pb.code).toBe(0);
    clean(pb);
    expect(pb.stdout).toContain('jitter␛[2Jrule');
    writeFileSync(join(ws, 'memory', `b${evilName}`), '---\ntitle: never closed\n');
    const v = runCli(['validate', '--dir', ws]);
    clean(v);
    expect(v.stdout).toContain('memory/bevil␛[2J');
  });

  it('checkpoint, and the skipped warning of index', () => {
    writeFileSync(join(ws, 'memory', `c${evilName}`), `# big\n\n${'- a long line of notes\n'.repeat(400)}`);
    writeFileSync(
      join(ws, 'gitmem.config.json'),
      JSON.stringify({ version: 1, layout: 'default', limits: { maxFileBytes: 4096 } }),
    );
    const idx = runCli(['index', '--dir', ws]);
    expect(idx.code).toBe(0);
    clean(idx);
    expect(idx.stdout + idx.stderr).toContain('skipped memory/cevil␛[2J');
    const cp = runCli(['checkpoint', '--dir', ws, '-m', 'notes']);
    expect(cp.code).toBe(0);
    clean(cp);
    expect(cp.stdout).toContain('memory/cevil␛[2J');
  });

  it('--json and a piped get keep the names and the text exact', () => {
    const log = runCli(['log', '--dir', ws, '--json']);
    expect(log.stdout).toContain(JSON.stringify(`memory/${evilName}`).slice(1, -1));
    writeFileSync(join(ws, 'memory', 'raw.md'), '# Raw\n\n- colour \u001b[31mred\u001b[0m\n');
    const get = runCli(['get', 'memory/raw.md', '--dir', ws, '--no-host']);
    expect(get.code).toBe(0);
    expect(get.stdout).toContain('colour \u001b[31mred\u001b[0m');
  });
});
