// Bad input B52 (docs/bad-inputs.md): the YAML parser reports one failure many times. Front-matter
// nested five thousand flow levels deep (`x: [[[[…]]]]`) gave ten "Maximum call stack size exceeded"
// errors at ten neighbouring columns, and an unclosed one nine identical "Flow sequence … must end with
// a ]" lines at one place: validate printed the same finding ten times. Each distinct message is now
// reported once, at its first position; distinct errors are all kept (up to the cap of ten).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, bareWorkspace } from '../../support/fixtures.js';

let root: string;
let ws: string;

beforeAll(() => {
  ({ root, ws } = bareWorkspace());
  const e = (extra: string) => `---\nid: x\ntype: decision\n${extra}\n---\n\nbody\n`;
  writeFileSync(join(ws, 'memory', 'entries', 'deep.md'), e(`x: ${'['.repeat(5000)}${']'.repeat(5000)}`));
  writeFileSync(join(ws, 'memory', 'entries', 'open.md'), e(`x: ${'['.repeat(20000)}`));
  writeFileSync(join(ws, 'memory', 'entries', 'two.md'), e('a: [1, 2\nb: {c'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a YAML failure reported once (B52)', { timeout: 60_000 }, () => {
  it('no front-matter error message is repeated within a file', () => {
    const r = runCli(['validate', '--dir', ws, '--json']);
    expect(r.code).toBe(1);
    const diags = (r.json().diagnostics as { path: string; code: string; message: string }[]).filter(
      (d) => d.code === 'memory.front-matter.invalid-yaml',
    );
    for (const file of ['memory/entries/deep.md', 'memory/entries/open.md', 'memory/entries/two.md']) {
      const messages = diags.filter((d) => d.path === file).map((d) => d.message);
      expect(messages.length, file).toBeGreaterThan(0);
      expect(new Set(messages).size, `${file}: ${messages.join(' | ')}`).toBe(messages.length);
    }
  });
});
