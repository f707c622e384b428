// `gitmem export <target>` as a real process on a real git repository holding the demo memory: the
// block holds the working state, MEMORY.md's items and the way to ask for more; the whole file stays
// within the host's limit and what did not fit is named; a second run writes nothing (byte for
// byte); --dry-run writes nothing; a person's text around the block is kept; a suspected secret is
// masked; Cursor's rule keeps its front-matter first and lives beside `gitmem integrate
// cursor`'s block; doctor names a host file its host would cut. Limits: docs/integrations.md.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCut } from '../../../src/core/budget.js';
import { runCli, write } from '../../support/fixtures.js';
import { useDemoProjects } from '../../support/demo-project.js';

const { project } = useDemoProjects();

const read = (root: string, p: string) => readFileSync(join(root, p), 'utf8');

describe('gitmem export', () => {
  it('claude-md: the state, MEMORY.md and how to ask for more, around a person’s text; a second run writes nothing', () => {
    const { root, env } = project();
    const mine = '# House rules\n\nRun `npm test` before pushing.\n';
    write(root, 'CLAUDE.md', mine);

    const dry = runCli(['export', 'claude-md', '--dry-run'], { cwd: root, env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('+<!-- gitmem:export:start');
    expect(read(root, 'CLAUDE.md')).toBe(mine);

    const r = runCli(['export', 'claude-md', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    expect(res).toMatchObject({ action: 'update', stateIncluded: true, included: 11, items: 11, leftOut: [] });
    const text = read(root, 'CLAUDE.md');
    expect(text.startsWith(mine)).toBe(true);
    expect(text).toContain('Objective: Cut p95 latency of `GET /v2/shipments/:id` below 120 ms.');
    expect(text).toContain('- Money is stored as integer cents with an ISO-4217 currency code, never as floats.');
    expect(text).toContain('#### Gotchas');
    expect(text).toContain('memory_recall');
    expect(text.trimEnd().endsWith('<!-- gitmem:export:end -->')).toBe(true);
    const mtime = statSync(join(root, 'CLAUDE.md')).mtimeMs;

    const again = runCli(['export', 'claude-md', '--json'], { cwd: root, env });
    expect(again.json().action).toBe('unchanged');
    expect(read(root, 'CLAUDE.md')).toBe(text);
    expect(statSync(join(root, 'CLAUDE.md')).mtimeMs).toBe(mtime);

    // a changed memory changes the block, and only the block
    write(root, 'memory/MEMORY.md', `${read(root, 'memory/MEMORY.md')}- Deploys happen on Tuesdays only.\n`);
    expect(runCli(['export', 'claude-md'], { cwd: root, env }).code).toBe(0);
    expect(read(root, 'CLAUDE.md')).toContain('- Deploys happen on Tuesdays only.');
    expect(read(root, 'CLAUDE.md').startsWith(mine)).toBe(true);

    const removed = runCli(['export', 'claude-md', '--remove'], { cwd: root, env });
    expect(removed.code, removed.stderr).toBe(0);
    expect(read(root, 'CLAUDE.md')).toBe(mine);
  });

  it('packs to the limit: the file fits, the first items are kept, the rest is named', () => {
    const { root, env } = project();
    const r = runCli(['export', 'agents-md', '--max-bytes', '2000', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const res = r.json();
    const text = read(root, 'AGENTS.md');
    expect(Buffer.byteLength(text)).toBe(res.bytes);
    expect(loadCut(text, { maxLines: 1e9, maxBytes: 2000 })).toBeUndefined();
    expect(res.included).toBeGreaterThan(0);
    expect(res.included).toBeLessThan(11);
    expect(res.leftOut.length).toBe(11 - res.included);
    // MEMORY.md is curated top-down: what is left out is its end
    expect(res.leftOut.at(-1)).toMatchObject({ path: 'memory/MEMORY.md', line: 22 });
    expect(text).toContain(`_${11 - res.included} more item`);
    // the text output names each item left out
    const plain = runCli(['export', 'agents-md', '--max-bytes', '2000'], { cwd: root, env });
    expect(plain.stdout).toContain('left out  memory/MEMORY.md:22: Jest');
    expect(plain.stdout).toContain('unchanged AGENTS.md');
  });

  it('never exports a suspected secret: it is masked in the block and named by its rule', () => {
    const { root, env } = project();
    const token = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
    write(
      root,
      'memory/MEMORY.md',
      `# Memory\n\n## Access\n\n- The CI token is ${token} for the deploy bot.\n- Staging lives at staging.example.com.\n`,
    );
    const r = runCli(['export', 'copilot-instructions', '--json'], { cwd: root, env });
    expect(r.code, r.stderr).toBe(0);
    const text = read(root, '.github/copilot-instructions.md');
    expect(text).not.toContain(token);
    expect(text).toContain('Staging lives at staging.example.com.');
    expect(text).toContain('- The CI token is ghp_…[redacted: GitHub token] for the deploy bot.');
    expect(r.json().masked).toEqual([{ path: 'memory/MEMORY.md', line: 5, rule: 'github-token' }]);
    expect(r.json().leftOut).toEqual([]);
  });

  it('cursor-rules: front-matter first, beside integrate cursor’s block; doctor names a host file over its limit', () => {
    const { root, env } = project();
    expect(runCli(['integrate', 'cursor'], { cwd: root, env }).code).toBe(0);
    expect(runCli(['export', 'cursor-rules'], { cwd: root, env }).code).toBe(0);
    const rule = read(root, '.cursor/rules/gitmem.mdc');
    expect(rule.startsWith('---\ndescription: ')).toBe(true);
    expect(rule).toContain('alwaysApply: true');
    expect(rule).toContain('<!-- gitmem:integrate:start');
    expect(rule).toContain('<!-- gitmem:export:start');
    expect(runCli(['integrate', 'cursor', '--remove'], { cwd: root, env }).code).toBe(0);
    const left = read(root, '.cursor/rules/gitmem.mdc');
    expect(left.startsWith('---\ndescription: ')).toBe(true);
    expect(left).not.toContain('gitmem:integrate:start');
    expect(runCli(['export', 'cursor-rules', '--remove'], { cwd: root, env }).code).toBe(0);
    expect(existsSync(join(root, '.cursor/rules/gitmem.mdc'))).toBe(false);

    write(root, 'CLAUDE.md', Array.from({ length: 230 }, (_, i) => `- rule ${i + 1}`).join('\n') + '\n');
    const doc = runCli(['doctor', '--json'], { cwd: root, env });
    expect(doc.code, doc.stderr).toBe(0);
    expect(doc.json().load.over).toContainEqual(
      expect.objectContaining({ path: 'CLAUDE.md', host: 'Claude Code', cutAtLine: 201, by: 'lines' }),
    );
    const exp = runCli(['export', 'claude-md'], { cwd: root, env });
    expect(exp.stdout).toContain('CLAUDE.md is over what Claude Code loads even without gitmem');
  });

  it('refuses an unknown target (exit 2)', () => {
    const { root, env } = project();
    const bad = runCli(['export', 'emacs'], { cwd: root, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('one of: agents-md, claude-md, cursor-rules, copilot-instructions');
  });
});
