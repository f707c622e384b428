// Bad input U37 (docs/bad-inputs.md): wiki links that spell a note's name with other case, spaces,
// `_` or `-` (`[[Reply_To_Current]]`, `[[Deploy_Steps]]` against `reply-to-current.md` and
// `Deploy Steps.md`). The real CLI validates a workspace built here: case alone still links; other
// separators are reported (editors follow the exact name) with the note they probably meant; an
// OpenClaw reply tag in any case stays a tag (U29).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../../support/fixtures.js';

type Diagnostic = { path: string; code: string; message: string };

function workspace(links: string[]): string {
  const dir = join(tempDir(), 'ws');
  mkdirSync(join(dir, 'memory', 'notes'), { recursive: true });
  mkdirSync(join(dir, 'memory', 'entries'), { recursive: true });
  writeFileSync(
    join(dir, 'gitmem.config.json'),
    JSON.stringify({ version: 1, layout: 'default', model: { enabled: false } }),
  );
  writeFileSync(
    join(dir, 'memory', 'notes', 'reply-to-current.md'),
    '# Reply to current\n\nHow the bot threads its replies.\n',
  );
  writeFileSync(join(dir, 'memory', 'notes', 'Deploy Steps.md'), '# Deploy Steps\n\nBuild, push, roll out.\n');
  writeFileSync(join(dir, 'memory', 'notes', 'a-b.md'), '# a-b\n');
  writeFileSync(join(dir, 'memory', 'notes', 'A B.md'), '# A B\n');
  writeFileSync(
    join(dir, 'memory', 'entries', '2026-11-02-use-blue-green.md'),
    '---\nid: 2026-11-02-use-blue-green\ntype: decision\ntitle: Use blue green\ntags: []\ncreated: 2026-11-02T10:00:00Z\nstatus: active\n---\n\nDeploys use blue green.\n',
  );
  writeFileSync(join(dir, 'memory', '2026-03-06.md'), `# 2026-03-06\n\n${links.map((l) => `- see ${l}`).join('\n')}\n`);
  return dir;
}

const unresolved = (dir: string): string[] => {
  const r = runCli(['validate', '--dir', dir, '--json'], { env: { GITMEM_NO_HOST: '1' } });
  expect(r.code, r.stderr).toBeLessThanOrEqual(1);
  return (r.json().diagnostics as Diagnostic[])
    .filter((d) => d.code === 'memory.link.unresolved')
    .map((d) => d.message);
};

describe('wiki links that differ from a note name in case or separators (U37)', { timeout: 60_000 }, () => {
  it('case alone links; other separators are reported with the name meant; reply tags stay tags', () => {
    const dir = workspace([
      '[[reply-to-current]]',
      '[[REPLY-TO-CURRENT]]',
      '[[deploy steps]]',
      '[[Deploy Steps.md]]',
      '[[Deploy_Steps]]',
      '[[deploy-steps]]',
      '[[Reply To Current]]',
      '[[Use_Blue_Green]]',
      '[[2026_11_02_Use_Blue_Green]]',
      '[[Reply_To_Current]]',
      '[[reply_to_current]]',
      '[[a_b]]',
      '[[totally-missing]]',
    ]);
    expect(unresolved(dir).sort()).toEqual([
      '[[2026_11_02_Use_Blue_Green]] matches no memory id or file name; did you mean [[2026-11-02-use-blue-green]]?',
      '[[Deploy_Steps]] matches no memory id or file name; did you mean [[Deploy Steps]]?',
      '[[Reply To Current]] matches no memory id or file name; did you mean [[reply-to-current]]?',
      '[[Use_Blue_Green]] matches no memory id or file name',
      '[[a_b]] matches no memory id or file name',
      '[[deploy-steps]] matches no memory id or file name; did you mean [[Deploy Steps]]?',
      '[[totally-missing]] matches no memory id or file name',
    ]);
  });
});
