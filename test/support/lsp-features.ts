// Test support: the workspace the language-server feature tests share (test/lsp/in-process/
// diagnostics, editing and requests): a copy of fixtures/workspaces/default with an entry holding
// an emoji and CJK text before unresolved links and a misspelt type (EMOJI), a near-duplicate of
// use-lunr (DUP) and a CRLF entry with a misspelt type (CRLF), committed on main, and a language
// server started on it.
import { copyFixture, initRepoOnMain } from './fixtures.js';
import { createLspPair, write, type LspPair } from './lsp.js';

export const EMOJI = [
  '---',
  'id: emoji-note',
  'type: decison',
  'tags: [search, editor]',
  '---',
  '',
  '- 🚀 see [[no-such-entry]] now',
  '- 日本語のメモ [[missing-two]]',
  '',
].join('\n');

export const DUP = [
  '---',
  'id: lunr-again',
  'type: decision',
  'title: Lunr for keyword recall again',
  'tags: [search]',
  'created: 2026-11-29',
  '---',
  '',
  'lunr gives BM25 ranking with no server and no native code. See [[tokenizer-splits-identifiers]].',
  '',
].join('\n');

export const CRLF = [
  '---',
  'id: crlf-entry',
  'type: learnin',
  'tags: [search]',
  '---',
  '',
  'Windows line ends stay whole.',
  '',
].join('\r\n');

/** An LSP position: zero-based line and UTF-16 character. */
export const pos = (line: number, character: number) => ({ line, character });

/**
 * Copy the default fixture, add EMOJI, DUP, CRLF and two code files, commit them on main and start
 * the language server in-process. @returns the started pair and the workspace root; close the pair.
 */
export async function startFeatureSession(): Promise<{ p: LspPair; root: string }> {
  const root = copyFixture('default');
  write(root, 'memory/entries/emoji.md', EMOJI);
  write(root, 'memory/entries/lunr-again.md', DUP);
  write(root, 'memory/entries/crlf.md', CRLF);
  write(root, 'src/indexes/lexical.ts', 'export {};\n');
  write(root, 'src/cli/main.ts', 'export {};\n');
  initRepoOnMain(root, 'seed');
  const p = createLspPair(root);
  await p.start();
  return { p, root };
}
