// The extension's logic without a VS Code binary: pure formatting, and the command flows driven by a
// fake UI against the real language server in-process. Also checks the manifest against the code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkpointMessage,
  createCommands,
  diffMarkdown,
  docLabel,
  groupByKind,
  recallPicks,
  statusText,
  type RecallPick,
  type Ui,
} from '../../extension/src/logic.js';
import { copyFixture, git, REPO, initRepoOnMain } from '../support/fixtures.js';
import { createLspPair, write, type LspPair } from '../support/lsp.js';

describe('formatting', () => {
  it('status bar: spinner while starting and indexing, counts and freshness when ready, error otherwise', () => {
    expect(statusText(undefined).text).toContain('sync~spin');
    expect(statusText({ state: 'indexing', message: 'reading 10/100 files' })).toEqual({
      text: '$(sync~spin) gitmem: indexing',
      tooltip: 'gitmem: reading 10/100 files',
    });
    const ready = statusText({
      state: 'ready',
      files: 12,
      chunks: 40,
      vectors: 40,
      degraded: null,
      indexedAt: '2026-11-29T10:00:00.000Z',
    });
    expect(ready.text).toBe('$(database) gitmem: hybrid');
    expect(ready.tooltip).toBe(
      'gitmem: ready — 12 files, 40 chunks, 40 vectors\nrecall: hybrid (keyword + vectors)\nindexed 2026-11-29 10:00:00',
    );
    const keyword = statusText({
      state: 'ready',
      files: 1,
      chunks: 1,
      vectors: null,
      degraded: 'onnxruntime-node could not be loaded',
    });
    expect(keyword.text).toBe('$(warning) gitmem: keyword');
    expect(keyword.tooltip).toContain('recall: keyword only — onnxruntime-node could not be loaded');
    expect(keyword.tooltip).not.toContain('null');
    expect(statusText({ state: 'error', message: 'config invalid' }).text).toBe('$(error) gitmem');
  });

  it('recall picks, tree groups and labels, checkpoint and diff texts', () => {
    const picks = recallPicks({
      query: 'q',
      mode: 'keyword',
      degraded: null,
      tookMs: 1,
      results: [
        {
          path: 'memory/entries/a.md',
          startLine: 9,
          endLine: 12,
          headingPath: [],
          kind: 'entry',
          snippet: 'line one\n  two',
          score: 1,
          scores: { keyword: 1, vector: null },
          entry: { id: 'a', type: 'decision', tags: [] },
        },
        {
          path: 'memory/MEMORY.md',
          startLine: 3,
          endLine: 3,
          headingPath: ['Memory', 'Tooling'],
          kind: 'long_term',
          snippet: 's',
          score: 0.5,
          scores: { keyword: 0.5, vector: null },
        },
      ],
    });
    expect(picks).toEqual([
      {
        label: 'a',
        description: 'memory/entries/a.md:9-12 · decision',
        detail: 'line one two',
        path: 'memory/entries/a.md',
        startLine: 9,
        endLine: 12,
      },
      {
        label: 'Tooling',
        description: 'memory/MEMORY.md:3',
        detail: 's',
        path: 'memory/MEMORY.md',
        startLine: 3,
        endLine: 3,
      },
    ]);
    const groups = groupByKind([
      { path: 'memory/entries/a.md', kind: 'entry', id: 'a', type: 'decision', errors: 2 },
      { path: 'memory/MEMORY.md', kind: 'long_term', errors: 0 },
      { path: 'memory/CURRENT_STATE.md', kind: 'current_state', title: 'Current State', errors: 0 },
    ]);
    expect(groups.map((g) => g.label)).toEqual(['Current state', 'Long-term memory', 'Entries']);
    expect(docLabel(groups[2]!.docs[0]!)).toEqual({ label: 'a', description: 'decision · 2 errors' });
    expect(checkpointMessage({ kind: 'nothing-to-commit', head: 'abc' })).toContain('nothing to commit');
    expect(
      checkpointMessage({
        kind: 'committed',
        oid: '0123456789abcdef',
        branch: 'main',
        summary: 'memory: 1 added',
        changes: { added: ['x'], modified: [], deleted: [] },
      }),
    ).toBe('gitmem: checkpoint 0123456 on main — memory: 1 added (1 file)');
    expect(
      checkpointMessage({
        kind: 'committed',
        oid: '0123456789abcdef',
        branch: 'main',
        summary: 'memory: 2 added',
        changes: { added: ['memory/big.md', 'x'], modified: [], deleted: [] },
        oversized: [{ path: 'memory/big.md', bytes: 6_000_000 }],
      }),
    ).toBe(
      'gitmem: checkpoint 0123456 on main — memory: 2 added (2 files); not indexed (over limits.maxFileBytes, recall and validate skip it): memory/big.md',
    );
    const md = diffMarkdown({
      from: { rev: 'HEAD', oid: 'aaaaaaa1' },
      to: null,
      summary: { added: 1, changed: 0, removed: 0 },
      changes: [
        {
          path: 'memory/entries/n.md',
          kind: 'entry',
          id: 'n',
          change: 'added',
          fields: [{ key: 'type', after: 'learning' }],
          sections: [],
          linesAdded: [{ line: 5, text: 'New.' }],
          linesRemoved: 0,
          bodyChanged: true,
          truncated: false,
        },
      ],
    });
    expect(md).toContain('# Memory changes: HEAD (aaaaaaa) → the work tree');
    expect(md).toContain('## added entry `n` — `memory/entries/n.md`');
    expect(md).toContain('- **type**: ∅ → learning');
    expect(md).toContain('+ New.');
  });
});

describe('commands against the real server', () => {
  let p: LspPair;
  let root: string;
  const calls: string[] = [];
  let answers: Record<string, string | undefined> = {};
  let selection: { text: string; path?: string } | undefined;
  let lastMarkdown = '';
  const ui: Ui = {
    async pickDynamic(_ph, search) {
      const res = await search('lunr keyword');
      calls.push(`pickDynamic:${res.items.length}`);
      return res.items[0];
    },
    async pick(ph, items) {
      calls.push(`pick:${ph}`);
      return answers[ph] ?? items[0];
    },
    async input(prompt, o) {
      calls.push(`input:${prompt}`);
      return prompt in answers ? answers[prompt] : (o?.value ?? '');
    },
    async info(m) {
      calls.push(`info:${m}`);
      return undefined;
    },
    error: (m) => void calls.push(`error:${m}`),
    async open(path, s, e) {
      calls.push(`open:${path}:${s ?? ''}-${e ?? ''}`);
    },
    async showMarkdown(title, md) {
      calls.push(`markdown:${title}`);
      lastMarkdown = md;
    },
    async showDiff(title, diff) {
      calls.push(`diff:${title}`);
      lastMarkdown = diff;
    },
    selection: () => selection,
  };

  beforeAll(async () => {
    root = copyFixture('default');
    initRepoOnMain(root, 'seed');
    p = createLspPair(root);
    await p.start();
  });
  afterAll(() => p?.close());

  it('Recall… searches as you type and opens the chosen memory at its lines', async () => {
    const cmds = createCommands(p.client, ui);
    calls.length = 0;
    const picked = (await cmds.recall()) as RecallPick;
    expect(picked.path).toBe('memory/entries/use-lunr.md');
    expect(calls).toEqual([
      expect.stringMatching(/^pickDynamic:[1-9]/),
      `open:memory/entries/use-lunr.md:${picked.startLine}-${picked.endLine}`,
    ]);
  });

  it('Remember Selection writes a typed entry with the selection, tags and the source file', async () => {
    const cmds = createCommands(p.client, ui);
    selection = { text: 'Retry webhooks with exponential backoff.', path: 'src/hooks.ts' };
    answers = { 'Tags (comma-separated, optional)': 'webhooks, retry', 'Memory type': 'decision' };
    const res: any = await cmds.rememberSelection();
    expect(res).toMatchObject({ status: 'created' });
    const text = readFileSync(join(root, res.path), 'utf8');
    expect(text).toContain('type: decision');
    expect(text).toContain('webhooks');
    expect(text).toContain('src/hooks.ts');
    expect(text).toContain('Retry webhooks with exponential backoff.');
    selection = undefined;
    expect(await cmds.rememberSelection()).toBeUndefined();
    expect(calls[calls.length - 1]).toBe('error:gitmem: select the text to remember first');
  });

  it('Review Memory Changes shows the diff; Checkpoint Memory commits; Show Current State falls back to the file', async () => {
    const cmds = createCommands(p.client, ui);
    answers = {};
    const diff = await cmds.reviewChanges();
    expect(diff!.changes.some((c) => c.change === 'added')).toBe(true);
    expect(lastMarkdown).toContain('# Memory changes: HEAD');
    answers = { 'Checkpoint message (empty: a summary of the changes)': 'from the editor' };
    const cp = await cmds.checkpoint();
    expect(cp).toMatchObject({ kind: 'committed', branch: 'main' });
    expect(git(root, 'log', '-1', '--format=%s').trim()).toBe('from the editor');
    write(root, 'memory/CURRENT_STATE.md', '# Current State\n\n## Objective\nShip the extension.\n');
    await p.client.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: p.uri('memory/CURRENT_STATE.md'), type: 1 }],
    });
    await p.inbox.until(
      () => p.server.updates() > 0 || p.inbox.statuses.filter((s) => s.state === 'ready').length > 1,
      'index update',
    );
    calls.length = 0;
    const snap = await cmds.showCurrentState();
    expect(typeof snap!.active).toBe('boolean');
    expect(calls.some((c) => c === 'open:memory/CURRENT_STATE.md:-' || c === 'markdown:Current state')).toBe(true);
  });

  it("the stale-code action's command shows the cited code's diff since the memory", async () => {
    const cmds = createCommands(p.client, ui);
    write(root, 'src/pay.ts', 'export const FEE = 1;\n');
    git(root, 'add', 'src/pay.ts');
    git(root, 'commit', '-q', '-m', 'pay');
    const since = git(root, 'rev-parse', 'HEAD').trim();
    write(root, 'src/pay.ts', 'export const FEE = 2;\n');
    calls.length = 0;
    const r = await cmds.codeDiff({ path: 'src/pay.ts', since });
    expect(r).toMatchObject({ path: 'src/pay.ts', deleted: false });
    expect(calls).toEqual([`diff:src/pay.ts since ${since.slice(0, 7)}`]);
    expect(lastMarkdown).toContain('-export const FEE = 1;\n+export const FEE = 2;\n');
    expect(await cmds.codeDiff({ path: 'src/pay.ts', since: 'not-a-commit' })).toBeUndefined();
    expect(calls[calls.length - 1]).toMatch(/^error:gitmem: .*not a commit id/);
  });

  it('errors from the server are shown, not thrown', async () => {
    const cmds = createCommands(p.client, ui);
    answers = { 'Compare memory since which revision?': 'no-such-revision' };
    expect(await cmds.reviewChanges()).toBeUndefined();
    expect(calls[calls.length - 1]).toMatch(/^error:gitmem: /);
  });
});

describe('manifest', () => {
  it('every contributed command is registered by extension.ts or review.ts and vice versa; activation and views are declared', () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'extension', 'package.json'), 'utf8'));
    const source = ['extension.ts', 'review.ts']
      .map((f) => readFileSync(join(REPO, 'extension', 'src', f), 'utf8'))
      .join('\n');
    const registered = [...source.matchAll(/registerCommand\('([^']+)'/g)].map((m) => m[1]).sort();
    const contributed = manifest.contributes.commands.map((c: any) => c.command).sort();
    expect(registered).toEqual(contributed);
    expect(contributed).toEqual(
      expect.arrayContaining([
        'gitmem.recall',
        'gitmem.rememberSelection',
        'gitmem.checkpoint',
        'gitmem.showCurrentState',
        'gitmem.reviewChanges',
      ]),
    );
    expect(manifest.contributes.views.explorer[0].id).toBe('gitmem.memory');
    expect(source).toContain("registerTreeDataProvider('gitmem.memory'");
    expect(manifest.engines.vscode).toBe('^1.82.0');
    expect(manifest.activationEvents).toContain('onLanguage:markdown');
    // The extension imports only vscode, vscode-languageclient, node built-ins and src/protocol.
    for (const f of ['extension.ts', 'logic.ts', 'review.ts']) {
      const text = readFileSync(join(REPO, 'extension', 'src', f), 'utf8');
      for (const m of text.matchAll(/from '([^']+)'/g)) {
        expect(m[1], `${f} imports ${m[1]}`).toMatch(
          /^(vscode|vscode-languageclient\/node\.js|node:[a-z]+|\.\/(logic|review)\.js|\.\.\/\.\.\/src\/protocol\/(requests|review)\.js)$/,
        );
      }
    }
  });
});
