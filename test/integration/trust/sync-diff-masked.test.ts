// R142 (docs/bad-inputs.md): what a sync brought in is shown masked. A teammate's entry whose file
// name and id hold a token (committed with plain git, so no gitmem guard ran), with a front-matter
// value and a body line holding others, came back whole in `gitmem sync`'s report (the incoming
// findings' ids and paths, the memory diff's ids, paths, field values and added lines, text and
// --json) and in `gitmem diff`. Real git: a bare remote and two clones.
import { describe, expect, it } from 'vitest';
import { git, okOutput, runCli, write } from '../../support/fixtures.js';
import { useSyncClones } from '../../support/sync-clones.js';

const setup = useSyncClones();

// Made-up values built at run time, so the source holds no key literal.
const GH = `ghp_${'a1B2c3D4e5'.repeat(3)}f6G7h8`;
const AWS = `AKIA${'Z7QW3RT5YU8OP2LK'}`;
const STRIPE = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
const PASSWORD = 'S3cretP4ss!word';
const SECRETS = [GH.slice(4), AWS.slice(4), STRIPE.slice(8), PASSWORD];

function expectMasked(shown: string): void {
  for (const s of SECRETS) expect(shown).not.toContain(s);
  expect(shown).toMatch(/\[redacted: GitHub token\]/);
}

describe('sync and diff show a teammate’s secrets masked (R142)', { timeout: 240_000 }, () => {
  it('incoming findings, the memory diff and gitmem diff mask ids, paths, values and lines', () => {
    const { a, b } = setup();
    const text = 'Invoices are rendered to PDF with the headless browser in the worker pool';
    okOutput(runCli(['remember', text, '--type', 'decision', '--json', '--dir', a]));
    okOutput(runCli(['sync', '--json', '--dir', a]));
    okOutput(runCli(['sync', '--json', '--dir', b]));
    // Ben (without gitmem's guards) commits an entry named after a token, repeating Ann's entry.
    write(
      b,
      `memory/entries/${GH}.md`,
      `---\nid: ${GH}\ntype: decision\ntitle: deploy ${AWS}\ntags: [${GH}]\ncreated: 2026-12-01T10:00:00Z\nstatus: active\nowner: ${STRIPE}\n---\n\n${text}\n`,
    );
    write(b, 'memory/MEMORY.md', `# Memory\n\n- The staging password = ${PASSWORD}\n- The token is ${GH}\n`);
    git(b, 'add', '-A');
    git(b, 'commit', '-q', '-m', 'notes from the deploy');
    git(b, 'push', '-q', 'origin', 'HEAD');

    const before = git(a, 'rev-parse', 'HEAD').trim();
    const r = runCli(['sync', '--json', '--dir', a]);
    expect(r.code, r.stderr).toBe(0);
    const json = r.json();
    expect(json.incomingFindings).toHaveLength(1);
    expect(json.incomingFindings[0].finding).toBe('duplicate');
    expect(json.memoryDiff.changes.length).toBeGreaterThanOrEqual(2);
    expectMasked(r.stdout + r.stderr);

    // The text report of the same sync (run again from before it).
    git(a, 'reset', '-q', '--hard', before);
    const t = runCli(['sync', '--dir', a]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/duplicate .*repeats/);
    expectMasked(t.stdout + t.stderr);

    for (const args of [
      ['diff', before, 'HEAD'],
      ['diff', before, 'HEAD', '--json'],
      ['diff', before],
    ]) {
      const d = runCli([...args, '--dir', a]);
      expect(d.code, d.stderr).toBe(0);
      expectMasked(d.stdout + d.stderr);
    }
  });
});
