// Bad input U17 (docs/bad-inputs.md): recall's human output prints text from memory files, which
// anyone who can push a commit controls. A heading thousands of characters long was printed whole on
// the result line, and escape sequences (ESC, BEL, OSC title changes) in a heading or snippet reached
// the terminal raw. The human lines cap each heading and the heading path, and show control
// characters as visible symbols; `--json` keeps the text as it is in the file. A playbook result
// was labelled `[entry]`; it says `[playbook]`.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../support/fixtures.js';

let root: string;
let ws: string;
const longHeading = `Webhook ${'retries '.repeat(800)}`.trim();

beforeAll(() => {
  root = tempDir();
  ws = join(root, 'ws');
  mkdirSync(join(ws, 'memory'), { recursive: true });
  writeFileSync(
    join(ws, 'memory', 'MEMORY.md'),
    `# Memory\n\n## ${longHeading}\n\n- webhook retries back off \u001b[31mred\u001b[0m and ring \u0007\n\n` +
      `## Escapes \u001b]0;pwned\u0007 here\n\n- more webhook retries \u009b2J\n`,
  );
  mkdirSync(join(ws, 'memory', 'playbook'));
  writeFileSync(
    join(ws, 'memory', 'playbook', 'jitter.md'),
    '---\nid: jitter\ncategory: workflow\ntitle: Jitter\npriority: 3\nactive: true\n---\n\nAdd jitter to webhook retries.\n',
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('recall human output (U17)', { timeout: 60_000 }, () => {
  it('caps a very long heading path on the result line', () => {
    const r = runCli(['recall', 'webhook retries', '--dir', ws, '--no-host', '--mode', 'keyword']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    const first = lines.find((l) => l.startsWith(' 1. '));
    expect(first).toBeDefined();
    expect(first!.length).toBeLessThan(300);
    expect(first).toMatch(/Webhook retries retries.*…/);
    for (const l of lines) expect(l.length).toBeLessThan(400);
  });

  it('shows control characters from memory text as symbols, never raw', () => {
    const r = runCli(['recall', 'webhook retries', '--dir', ws, '--no-host', '--mode', 'keyword']);
    expect(r.code).toBe(0);
    // eslint-disable-next-line no-control-regex -- exactly what must not reach a terminal
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(r.stdout).toContain('␛[31mred');
    expect(r.stdout).toContain('Escapes ␛]0;pwned␇ here');
  });

  it('labels a playbook result [playbook], not [entry]', () => {
    const r = runCli(['recall', 'jitter', '--dir', ws, '--no-host', '--mode', 'keyword']);
    expect(r.stdout).toMatch(/memory\/playbook\/jitter\.md:\S+ \[playbook\] jitter /);
  });

  it('--json keeps the heading and snippet exactly as in the file', () => {
    const r = runCli(['recall', 'webhook retries', '--dir', ws, '--no-host', '--mode', 'keyword', '--json']);
    expect(r.code).toBe(0);
    const results = r.json().results as { headingPath: string[]; snippet: string }[];
    expect(results.some((x) => x.headingPath.includes(longHeading))).toBe(true);
    expect(results.some((x) => x.snippet.includes('\u001b[31mred'))).toBe(true);
  });
});
