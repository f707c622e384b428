// B46: typing in a huge open note. A real `gitmem lsp --stdio` holds a generated 20,000-line daily
// note open while it is edited again and again through incremental didChange (words typed into
// lines, lines inserted and deleted, a secret added and taken out, a broken link added); the server
// then answers diagnostics and keyword recall exactly as a fresh server given the final text does.
// (Reusing unchanged chunks' keyword analysis, line findings and delta entries must not change any
// answer; the speed is measured by bench/lsp-edit.ts, not here.)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/fixtures.js';
import { spawnCliServer, initializeSpawned, write, type SpawnedServer } from '../support/lsp.js';

const REL = 'memory/daily/2026-12-01.md';
const WORDS = ['pool', 'deploy', 'retry', 'webhook', 'cache', 'queue', 'schema', 'rollback', 'flag', 'latency'];

function note(lines: number): string[] {
  const out = ['# 2026-12-01', ''];
  for (let i = 2; i < lines; i++) {
    if (i % 40 === 0) out.push(`## block ${i / 40}`);
    else if (i % 40 === 1) out.push('');
    else if (i % 500 === 7) out.push(`- see [[missing-${i}]] about ${WORDS[i % 10]}`);
    else out.push(`- ${WORDS[i % 10]} ${WORDS[(i * 7) % 10]} item ${i} ${WORDS[(i * 3) % 10]} w${(i * 31) % 997}`);
  }
  return out;
}

const servers: SpawnedServer[] = [];
const roots: string[] = [];
afterAll(async () => {
  for (const s of servers) {
    await s.client.sendRequest('shutdown').catch(() => undefined);
    s.kill();
  }
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

async function start(text: string): Promise<{ s: SpawnedServer; uri: string }> {
  const base = tempDir('gitmem-big-note-');
  roots.push(base);
  const root = join(base, 'ws');
  write(root, 'gitmem.config.json', JSON.stringify({ version: 1, layout: 'default' }));
  write(root, 'memory/MEMORY.md', '# Memory\n\n- The staging database is reset every night.\n');
  write(root, REL, text);
  const s = spawnCliServer(root);
  servers.push(s);
  await initializeSpawned(s, root);
  await s.inbox.until(() => s.inbox.ready !== undefined, 'gitmem/ready', 120_000);
  const uri = pathToFileURL(join(root, REL)).href;
  await s.client.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'markdown', version: 1, text },
  });
  return { s, uri };
}

type Recall = { results: { path: string; startLine: number; endLine: number; score: number; snippet: string }[] };
const QUERIES = [
  'deploy retry',
  'typedword3',
  'typedword7',
  'inserted line',
  'block',
  'missing',
  'w500',
  'latency flag',
];

async function answers(s: SpawnedServer, uri: string) {
  // A request reads the model: the buffer's last text is parsed and its diagnostics published.
  await s.client.sendRequest('textDocument/documentSymbol', { textDocument: { uri } });
  const recall: unknown[] = [];
  for (const query of QUERIES) {
    const r = (await s.client.sendRequest('gitmem/recall', { query, mode: 'keyword', limit: 20 })) as Recall;
    recall.push(r.results.map((h) => [h.path, h.startLine, h.endLine, h.score, h.snippet]));
  }
  const diagnostics = s.inbox
    .diagnosticsFor(uri)
    .map((d) => [d.range.start.line, d.range.start.character, d.range.end.line, d.code, d.severity, d.message]);
  return { recall, diagnostics };
}

describe('B46: a 20,000-line open note edited many times', () => {
  it('answers diagnostics and recall as a fresh server given the final text', async () => {
    const lines = note(20_000);
    const { s, uri } = await start(`${lines.join('\n')}\n`);
    let version = 1;
    const change = async (range: [number, number, number, number], text: string) => {
      const [sl, sc, el, ec] = range;
      version++;
      await s.client.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: { line: sl, character: sc }, end: { line: el, character: ec } }, text }],
      });
    };
    /** Apply the same edit to `lines` (one line replaced, inserted or deleted) and to the buffer. */
    const replace = async (i: number, text: string) => {
      await change([i, 0, i, lines[i]!.length], text);
      lines[i] = text;
    };
    const insert = async (i: number, text: string) => {
      await change([i, 0, i, 0], `${text}\n`);
      lines.splice(i, 0, text);
    };
    const remove = async (i: number) => {
      await change([i, 0, i + 1, 0], '');
      lines.splice(i, 1);
    };
    /** Recall `word` until it is found, asking again after each `gitmem/status` (an index update's end). */
    const recallFinds = async (word: string) => {
      for (;;) {
        const seen = s.inbox.statuses.length;
        const r = (await s.client.sendRequest('gitmem/recall', { query: word, mode: 'keyword' })) as Recall;
        if (r.results.length) return;
        await s.inbox.until(() => s.inbox.statuses.length > seen, `an index update with ${word}`, 30_000);
      }
    };
    for (let e = 0; e < 10; e++) {
      const i = 100 + ((e * 3917) % 19_000);
      // A word typed into a line, one keystroke at a time (a burst the server parses once).
      for (const [k, ch] of [...`typedword${e} `].entries()) {
        version++;
        await s.client.sendNotification('textDocument/didChange', {
          textDocument: { uri, version },
          contentChanges: [
            { range: { start: { line: i, character: 2 + k }, end: { line: i, character: 2 + k } }, text: ch },
          ],
        });
      }
      lines[i] = `${lines[i]!.slice(0, 2)}typedword${e} ${lines[i]!.slice(2)}`;
      if (e % 3 === 1) await insert(50 + e * 1000, `- inserted line ${e} about the deploy queue`);
      if (e % 4 === 2) await remove(60 + e * 1500);
      if (e === 4) await replace(9000, '- aws key AKIAABCDEFGHIJKLMNOP pasted by mistake');
      if (e === 6) await replace(9000, '- the key was rotated');
      if (e === 5) await replace(12_000, '- see [[no-such-note]] for the rollback');
      // Some edits are waited for until recall has them, the others run into the next burst.
      if (e % 2 === 0) await recallFinds(`typedword${e}`);
    }
    await recallFinds('typedword9');
    const edited = await answers(s, uri);
    const fresh = await start(`${lines.join('\n')}\n`);
    const expected = await answers(fresh.s, fresh.uri);
    expect(edited.diagnostics.length).toBeGreaterThan(30);
    expect(edited.diagnostics.some((d) => d[5] === '[[no-such-note]] matches no memory id or file name')).toBe(true);
    expect(edited.diagnostics.some((d) => d[3] === 'memory.secret.suspected')).toBe(false);
    expect(edited.diagnostics).toEqual(expected.diagnostics);
    expect(edited.recall).toEqual(expected.recall);
    expect((edited.recall[1] as unknown[]).length).toBeGreaterThan(0);
  }, 300_000);
});
