// Issue 41's conflict scenarios through the CLI and the MCP server (real stdio, the SDK client), on a
// copy of the real openclaw-crontinel corpus. V06: an entry that contradicts MEMORY.md:150
// (`PRICE_ID_*`, NOT `STRIPE_PRICE_*`) came back beside it as an equal fact in `gitmem context`;
// now the newer comes first and the older is labelled "conflicts with <id>" in the block, the
// listing and `--json` (`conflictsWith`), on every recall, not once at `remember`. V07: unrelated
// facts that only share a number got "possible conflict … similarity 1, number differs"; now they
// get nothing, while a real contradiction beside them is still flagged and labelled.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../../support/fixtures.js';
import { startMcp } from '../../support/mcp.js';
import {
  crontinelCopy,
  POOL,
  PRICE_LINE,
  PRICE_TASK,
  scenarioEnv,
  STRIPE_ENTRY,
  UNRELATED,
} from '../../support/conflict-scenarios.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(dirname(r), { recursive: true, force: true });
});

function workspace() {
  requireBuiltCli();
  const root = crontinelCopy();
  roots.push(root);
  const env = scenarioEnv(root);
  const cli = (...args: string[]) => {
    const r = runCli(['--dir', root, ...args], { cwd: root, env });
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  return { root, env, cli };
}

const isPriceLine = (r: { path: string; startLine: number; endLine: number }) =>
  r.path === 'MEMORY.md' && r.startLine <= PRICE_LINE && r.endLine >= PRICE_LINE;

describe('V06: contradicting memories are labelled in every answer', () => {
  it('CLI: context --budget, context, context --json and recall --json put the newer first and label the older', () => {
    const { cli } = workspace();
    const made = cli('--json', 'remember', '--type', 'decision', '--tag', 'billing', STRIPE_ENTRY).json();
    expect(made.status).toBe('created');

    // The block the prompt hook injects: the entry first, MEMORY.md:150 labelled with the entry's id.
    const block = cli('context', '--budget', '1500', PRICE_TASK).stdout;
    const entryAt = block.indexOf(made.path);
    const priceAt = block.search(new RegExp(`^${PRICE_LINE}: `, 'm'));
    expect(entryAt, block).toBeGreaterThan(0);
    expect(priceAt, block).toBeGreaterThan(entryAt);
    const priceLine = block.split('\n').find((l) => l.startsWith(`${PRICE_LINE}: `))!;
    expect(priceLine).toContain('NOT `STRIPE_PRICE_*`');
    expect(priceLine).toMatch(new RegExp(`\\[conflicts with ${made.id}\\]$`));
    // The newer line itself carries no label.
    expect(block.split('\n').find((l) => l.includes('STRIPE_PRICE_FREE'))).not.toContain('conflicts with');

    // Asked again (and again): still labelled, not a one-time hint.
    for (let i = 0; i < 2; i++) {
      const json = cli('--json', 'context', PRICE_TASK).json();
      const older = json.memories.findIndex(isPriceLine);
      const newer = json.memories.findIndex((r: { path: string }) => r.path === made.path);
      expect(newer).toBeGreaterThanOrEqual(0);
      expect(older).toBeGreaterThan(newer);
      expect(json.memories[older].conflictsWith).toEqual([made.id]);
      expect(json.memories[newer].conflictsWith).toBeUndefined();
    }
    const listing = cli('context', PRICE_TASK).stdout;
    expect(listing).toMatch(new RegExp(`MEMORY\\.md:${PRICE_LINE} \\[conflicts with ${made.id}\\]`));

    const recall = cli('--json', 'recall', 'stripe price ids').json();
    const labelled = recall.results.filter((r: { conflictsWith?: string[] }) => r.conflictsWith);
    expect(labelled).toHaveLength(1);
    expect(isPriceLine(labelled[0])).toBe(true);
    expect(cli('recall', 'stripe price ids').stdout).toContain(`[conflicts with ${made.id}]`);
  });

  it('MCP: memory_recall results carry conflictsWith and its context block labels the older line', async () => {
    const { root, env } = workspace();
    const mcp = await startMcp(root, env);
    try {
      const made = (await mcp.call('memory_remember', { text: STRIPE_ENTRY, type: 'decision', tags: ['billing'] }))
        .data;
      expect(made.status).toBe('created');
      const res = await mcp.call('memory_recall', { query: PRICE_TASK, budget: 1500, mode: 'keyword' });
      expect(res.isError, res.text).toBe(false);
      const results = res.data.results as {
        path: string;
        startLine: number;
        endLine: number;
        conflictsWith?: string[];
      }[];
      const older = results.findIndex(isPriceLine);
      const newer = results.findIndex((r) => r.path === made.path);
      expect(newer).toBeGreaterThanOrEqual(0);
      expect(older).toBeGreaterThan(newer);
      expect(results[older]!.conflictsWith).toEqual([made.id]);
      const text = res.data.context.text as string;
      expect(text.indexOf(made.path)).toBeLessThan(text.search(new RegExp(`^${PRICE_LINE}: `, 'm')));
      expect(text).toContain(`[conflicts with ${made.id}]`);
    } finally {
      await mcp.close();
    }
  });
});

describe('V07: facts that only share a number are not called conflicts', () => {
  it('CLI: remember answers no possible_conflict for them and recall labels nothing; a real contradiction still is', () => {
    const { root, cli } = workspace();
    const remember = (text: string) =>
      cli('--json', 'remember', '--type', 'learning', '--tag', 'releases', text).json();
    const paths: string[] = [];
    for (const [a, b] of UNRELATED) {
      const one = remember(a);
      expect(one.status).toBe('created');
      const second = remember(b);
      expect(second.status).toBe('created');
      expect(second.possible_conflict, `${a} | ${b}`).toBeUndefined();
      paths.push(one.path, second.path);
    }
    const human = cli(
      'remember',
      '--type',
      'learning',
      '--tag',
      'releases',
      'Release 2.5.0 shipped to production on 2025-07-02.',
    );
    expect(human.stderr).not.toContain('possible conflict');
    const found = new Set<string>();
    for (const q of ['release shipped to production', 'monitors free plan']) {
      const r = cli('--json', 'recall', q).json();
      expect(r.results.filter((x: { conflictsWith?: string[] }) => x.conflictsWith)).toEqual([]);
      for (const x of r.results) found.add(x.path);
    }
    // They were recalled side by side: nothing labelled is a judgement, not a miss.
    expect(paths.filter((x) => found.has(x))).toEqual(paths);

    const first = remember(POOL[0]);
    const second = remember(POOL[1]);
    expect(second.possible_conflict).toMatchObject({ id: first.id, reasons: ['number'] });
    // Both written this second or the next: one is labelled with the other's id and comes after it.
    const pool = cli('--json', 'recall', 'monitor check pool workers').json();
    const ids = [first, second].map((x) => ({
      id: x.id,
      at: pool.results.findIndex((r: { path: string }) => r.path === x.path),
    }));
    const labelled = pool.results.filter((x: { conflictsWith?: string[] }) => x.conflictsWith);
    expect(labelled).toHaveLength(1);
    const [older, newer] = labelled[0].path === first.path ? ids : [...ids].reverse();
    expect(labelled[0].conflictsWith).toEqual([newer!.id]);
    expect(older!.at).toBeGreaterThan(newer!.at);

    // "Keep both" (compatible_with, what the editor's quick fix writes): no longer labelled.
    const file = join(root, second.path);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^type: /m, `compatible_with: [${first.id}]\ntype: `));
    const kept = cli('--json', 'recall', 'monitor check pool workers').json();
    expect(kept.results.some((r: { path: string }) => r.path === second.path)).toBe(true);
    expect(kept.results.filter((x: { conflictsWith?: string[] }) => x.conflictsWith)).toEqual([]);
  });

  it('MCP: memory_remember answers no possible_conflict for them and memory_recall labels nothing', async () => {
    const { root, env } = workspace();
    const mcp = await startMcp(root, env);
    try {
      const remember = async (text: string) =>
        (await mcp.call('memory_remember', { text, type: 'learning', tags: ['releases'] })).data;
      const paths: string[] = [];
      for (const [a, b] of UNRELATED) {
        const one = await remember(a);
        const second = await remember(b);
        expect(second.status).toBe('created');
        expect(second.possible_conflict, `${a} | ${b}`).toBeUndefined();
        paths.push(one.path, second.path);
      }
      const found = new Set<string>();
      for (const query of ['release shipped to production', 'monitors free plan']) {
        const r = await mcp.call('memory_recall', { query, mode: 'keyword' });
        const results = r.data.results as { path: string; conflictsWith?: string[] }[];
        expect(results.filter((x) => x.conflictsWith)).toEqual([]);
        for (const x of results) found.add(x.path);
      }
      expect(paths.filter((x) => found.has(x))).toEqual(paths);
    } finally {
      await mcp.close();
    }
  });
});
