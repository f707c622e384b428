// complete-task's curator asks the one dedupe policy (issue #18; service/shared/dedupe-policy.ts)
// whether new guidance repeats a playbook entry, the policy `gitmem dream` asks of two playbook
// entries when it proposes merges (`gitmem dedupe` looks at typed entries only, not the playbook).
// For each pair — an existing playbook entry P and a guidance text X a task brings — the curator's
// verdict (X left out of every delta: "already in the playbook") and the policy's (`gitmem dream`
// proposes merging an entry holding X into P) must agree. Real CLI processes, committed copies of the
// demo fixture (real git repositories in temp folders) and the shipped ONNX model.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { committedFixture, git, runCli } from '../../support/fixtures.js';
import { modelDir } from '../../support/model.js';

const env = { GITMEM_MODEL_DIR: modelDir(), GITMEM_NO_HOST: '1' };
const cli = (root: string, args: string[], input?: string) =>
  runCli(['--dir', root, '--json', ...args], { cwd: root, env, ...(input !== undefined ? { input } : {}) });
function ok(r: ReturnType<typeof runCli>): any {
  expect(r.code, `${r.stderr}\n${r.stdout}`).toBe(0);
  return r.json();
}

const playbook = (id: string, created: string, text: string) =>
  `---\nid: ${id}\ncategory: gotchas\ntitle: ${text.replace(/[.!?]$/, '')}\npriority: 6\ntags: []\n` +
  `supporting: []\nactive: true\ncreated: ${created}\ncreated_by: developer\n---\n\n${text}\n`;

interface Case {
  readonly name: string;
  /** The playbook entry already there. */
  readonly existing: string;
  /** The guidance the task brings (its feedback, which the reflector takes as the insight). */
  readonly guidance: string;
  /** The policy's verdict: does the guidance repeat the entry? */
  readonly repeats: boolean;
  /** A repeat found by meaning only (dream's why names the cosine). */
  readonly byMeaning?: boolean;
}

const CASES: readonly Case[] = [
  {
    name: 'the same text',
    existing: 'Clear the build cache whenever webpack serves stale bundles after a branch switch.',
    guidance: 'Clear the build cache whenever webpack serves stale bundles after a branch switch.',
    repeats: true,
  },
  {
    // Word similarity below dedupe.jaccard (10 of 12 words): a repeat by meaning only, from the
    // insight's embedding against the entry's stored vector.
    name: 'a reworded repeat (by meaning)',
    existing: 'The payments service retries failed webhooks three times before giving up.',
    guidance: 'The payments service retries a failed webhook three times before giving up.',
    repeats: true,
    byMeaning: true,
  },
  {
    // Word similarity well below dedupe.jaccard and a cosine below dedupe.cosine: related guidance,
    // not a repeat. The curator's own rule called it covered (its Jaccard over stemmed words 0.6).
    name: 'a reworded sentence',
    existing: 'Wrap database writes in a transaction so partial failures roll back.',
    guidance: 'Use a transaction around database writes so a partial failure is rolled back.',
    repeats: false,
  },
  {
    // A changed number is a possible conflict, never a repeat; the curator's own rule dropped the
    // numbers before comparing and called it covered.
    name: 'a changed number',
    existing: 'Keep Redis lock timeouts at 30 seconds so a crashed worker releases its lock.',
    guidance: 'Keep Redis lock timeouts at 5 seconds so a crashed worker releases its lock.',
    repeats: false,
  },
];

/** The curator's verdict: complete-task with the guidance as feedback; true when no delta carries it. */
function curatorRepeats(c: Case): boolean {
  const root = committedFixture('demo');
  writeFileSync(join(root, 'memory', 'playbook', 'existing.md'), playbook('existing', '2026-11-01', c.existing));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'playbook entry');
  ok(cli(root, ['index']));
  const task = {
    goal: 'Review the nightly order import job',
    result: 'Reviewed the nightly order import job with the team.',
    feedback: c.guidance,
    type: 'warning',
    tool_usage: [],
  };
  const res = ok(cli(root, ['complete-task', '--input', '-'], JSON.stringify(task)));
  expect(res.status).toBe('created');
  expect((res.insights as Array<{ text: string }>).map((i) => i.text)).toContain(c.guidance);
  const deltas = res.deltas as Array<{ op: string; text?: string; append?: string }>;
  return !deltas.some((d) => d.text === c.guidance || d.append?.includes(c.guidance));
}

/** The policy's verdict on the same pair: `gitmem dream` with the guidance written as a newer entry. */
function dreamRepeats(c: Case): boolean {
  const why = dreamMerge(c);
  if (c.byMeaning) expect(why).toMatch(/cosine 0\.9\d/);
  return why !== undefined;
}

/** Why `gitmem dream` proposes merging the guidance into the entry, or undefined when it does not. */
function dreamMerge(c: Case): string | undefined {
  const root = committedFixture('demo');
  writeFileSync(join(root, 'memory', 'playbook', 'existing.md'), playbook('existing', '2026-11-01', c.existing));
  writeFileSync(join(root, 'memory', 'playbook', 'incoming.md'), playbook('incoming', '2026-12-01', c.guidance));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'playbook entries');
  ok(cli(root, ['index']));
  const res = ok(cli(root, ['dream', '--no-commit']));
  return (res.proposals as Array<{ title: string; why: string }>).find(
    (p) => p.title === 'merge incoming into existing',
  )?.why;
}

describe("complete-task's curator and gitmem dream agree on repeats (one dedupe policy)", { timeout: 300_000 }, () => {
  for (const c of CASES) {
    it(c.name, () => {
      expect({ dream: dreamRepeats(c), curator: curatorRepeats(c) }).toEqual({
        dream: c.repeats,
        curator: c.repeats,
      });
    });
  }
});
