// Bad input U29 (docs/bad-inputs.md): OpenClaw's reply tags (`[[reply_to_current]]`, `[[reply_to:<id>]]`,
// `[[audio_as_voice]]`), which the agent writes at the start of an answer and which stay in the
// session logs it saves as memory, were reported as `memory.link.unresolved`: 10 false warnings on
// the vendored openclaw-zh corpus and 2 on openclaw-crontinel. The real CLI validates temp copies of
// both corpora and of a workspace built here, where a real broken link is still reported.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPORA } from '../../support/corpora.js';
import { runCli, tempDir } from '../../support/fixtures.js';

type Diagnostic = { path: string; code: string; message: string };
const validate = (dir: string): Diagnostic[] => {
  const r = runCli(['validate', '--dir', dir, '--json'], { env: { GITMEM_NO_HOST: '1' } });
  expect(r.code, r.stderr).toBeLessThanOrEqual(1);
  return r.json().diagnostics as Diagnostic[];
};
const unresolved = (d: Diagnostic[]) => d.filter((x) => x.code === 'memory.link.unresolved');

describe('OpenClaw reply tags are not links (U29)', { timeout: 60_000 }, () => {
  it.each(['openclaw-zh', 'openclaw-crontinel'])('%s: no unresolved-link warning for a reply tag', (name) => {
    const dir = join(tempDir(), name);
    cpSync(join(CORPORA, name), dir, { recursive: true });
    const found = unresolved(validate(dir));
    expect(found.filter((x) => /reply_to|audio_as_voice/.test(x.message))).toEqual([]);
  });

  it('every tag form is left alone in both layouts; a broken link and a look-alike are still reported', () => {
    for (const layout of ['openclaw', 'default']) {
      const dir = join(tempDir(), layout);
      mkdirSync(join(dir, 'memory'), { recursive: true });
      if (layout === 'openclaw') writeFileSync(join(dir, 'MEMORY.md'), '# Memory\n\n- The gateway restarts nightly.\n');
      writeFileSync(
        join(dir, 'memory', '2026-03-06.md'),
        [
          '# 2026-03-06',
          '',
          'assistant: [[reply_to_current]] The gateway restarts at 03:00.',
          'assistant: [[ reply_to_current ]] Checked again.',
          'assistant: [[reply_to:1234567]] Yes, that thread.',
          'assistant: [[audio_as_voice]] (voice reply)',
          'user: see [[gateway-runbook]] and [[reply_to_everyone]]',
          '',
        ].join('\n'),
      );
      const found = unresolved(validate(dir)).map((x) => x.message);
      expect(found.sort()).toEqual([
        '[[gateway-runbook]] matches no memory id or file name',
        '[[reply_to_everyone]] matches no memory id or file name',
      ]);
    }
  });
});
