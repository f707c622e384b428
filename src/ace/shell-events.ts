// ACE executor, shell commands and patches: a command line split into simple commands (quotes
// honoured, no expansion) and the files each reads, searches or edits; the files an `apply_patch`
// body names. Pure and deterministic.
import type { FileRelation } from './types.js';
import { fileLike, normaliseToolPath, type FileEvent, type ToolPathBase, num } from './tool-paths.js';

/** Split a shell command into simple commands, each a list of words (quotes honoured, no expansion). */
export function shellWords(command: string): string[][] {
  const cmds: string[][] = [];
  let cur: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  const endWord = () => {
    if (inWord) cur.push(word);
    word = '';
    inWord = false;
  };
  const endCmd = () => {
    endWord();
    if (cur.length) cmds.push(cur);
    cur = [];
  };
  for (let i = 0; i < command.length; i++) {
    const ch = command[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else if (ch === '\\' && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (ch === ';' || ch === '\n' || ch === '|' || ch === '&' || ch === '(' || ch === ')') {
      endCmd();
    } else if (ch === '>' || ch === '<') {
      endWord();
      const append = command[i + 1] === '>';
      if (append) i++;
      cur.push(ch === '<' ? '<' : append ? '>>' : '>');
    } else if (/\s/.test(ch)) endWord();
    else {
      word += ch;
      inWord = true;
    }
  }
  endCmd();
  return cmds;
}

const READ_CMDS = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'bat',
  'nl',
  'wc',
  'view',
  'stat',
  'file',
  'diff',
  'cmp',
  'jq',
  'xxd',
  'od',
]);
export const SEARCH_CMDS = new Set(['grep', 'rg', 'ag', 'ack', 'egrep', 'fgrep', 'git-grep']);
const EDITOR_CMDS = new Set([
  'vim',
  'vi',
  'nano',
  'emacs',
  'code',
  'ed',
  'patch',
  'prettier',
  'eslint',
  'black',
  'gofmt',
  'rustfmt',
  'dos2unix',
  'chmod',
  'perl',
]);

/** File events of one shell command line. */
export function eventsFromCommand(command: string, cwd: ToolPathBase | undefined): FileEvent[] {
  const out: FileEvent[] = [];
  const add = (raw: string, relation: FileRelation, lines?: [number, number]) => {
    if (raw.startsWith('-')) return;
    const p = normaliseToolPath(raw, cwd);
    if (p && fileLike(p)) out.push({ path: p, relation, ...(lines ? { lines } : {}) });
  };
  for (let words of shellWords(command)) {
    // Redirections first: `> f` creates (or overwrites), `>> f` modifies.
    const rest: string[] = [];
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if ((w === '>' || w === '>>') && words[i + 1]) {
        if (!/^&?\d?$/.test(words[i + 1]!) && words[i + 1] !== '/dev/null')
          add(words[i + 1]!, w === '>' ? 'created' : 'modified');
        i++;
      } else if (w === '<' && words[i + 1]) {
        add(words[i + 1]!, 'read');
        i++;
      } else rest.push(w);
    }
    words = rest;
    while (words.length && /^(sudo|env|time|npx|exec|command|nohup|[A-Z_]+=.*)$/.test(words[0]!))
      words = words.slice(1);
    if (!words.length) continue;
    let [cmd, ...args] = words as [string, ...string[]];
    cmd = cmd.slice(cmd.lastIndexOf('/') + 1);
    if (cmd === 'git' && args.length) {
      const sub = args[0]!;
      args = args.slice(1).filter((a) => a !== '--');
      if (sub === 'rm') args.forEach((a) => add(a, 'deleted'));
      else if (sub === 'mv' && args.length >= 2) {
        const plain = args.filter((a) => !a.startsWith('-'));
        plain.slice(0, -1).forEach((a) => add(a, 'deleted'));
        add(plain[plain.length - 1]!, 'created');
      } else if (sub === 'checkout' || sub === 'restore') args.forEach((a) => add(a, 'modified'));
      else if (sub === 'grep') args.forEach((a) => add(a, 'referenced'));
      else args.forEach((a) => add(a, 'referenced'));
      continue;
    }
    const plain = args.filter((a) => !a.startsWith('-'));
    if (cmd === 'rm' || cmd === 'unlink' || cmd === 'shred') plain.forEach((a) => add(a, 'deleted'));
    else if (cmd === 'mv' && plain.length >= 2) {
      plain.slice(0, -1).forEach((a) => add(a, 'deleted'));
      add(plain[plain.length - 1]!, 'created');
    } else if (cmd === 'cp' && plain.length >= 2) {
      plain.slice(0, -1).forEach((a) => add(a, 'read'));
      add(plain[plain.length - 1]!, 'created');
    } else if (cmd === 'touch' || cmd === 'tee') plain.forEach((a) => add(a, cmd === 'tee' ? 'modified' : 'created'));
    else if (cmd === 'sed' || cmd === 'awk') {
      const inPlace = args.some((a) => /^-i/.test(a) || a === '--in-place');
      // sed -n '10,20p' file → read lines 10–20.
      let lines: [number, number] | undefined;
      for (const a of args) {
        const m = /^(\d+)(?:,(\d+))?p$/.exec(a);
        if (m) lines = [Number(m[1]), Number(m[2] ?? m[1])];
      }
      // The script is the first plain word unless -e/-f gave it.
      const files = args.some((a) => a === '-e' || a === '-f') ? plain : plain.slice(1);
      files.forEach((a) => add(a, inPlace ? 'modified' : 'read', lines));
    } else if (READ_CMDS.has(cmd)) {
      let lines: [number, number] | undefined;
      const n = args.findIndex((a) => a === '-n');
      if ((cmd === 'head' || cmd === 'tail') && n >= 0 && num(args[n + 1])) {
        if (cmd === 'head') lines = [1, num(args[n + 1])!];
      }
      plain.filter((a) => !(n >= 0 && a === args[n + 1])).forEach((a) => add(a, 'read', lines));
    } else if (SEARCH_CMDS.has(cmd)) plain.slice(1).forEach((a) => add(a, 'referenced'));
    else if (EDITOR_CMDS.has(cmd)) plain.forEach((a) => add(a, 'modified'));
    else plain.forEach((a) => add(a, 'referenced'));
  }
  return out;
}

/** File events of an `apply_patch` body (`*** Update File:` / `--- a/…` headers). */
export function eventsFromPatch(patch: string, cwd: ToolPathBase | undefined): FileEvent[] {
  const out: FileEvent[] = [];
  const add = (raw: string, relation: FileRelation) => {
    const p = normaliseToolPath(raw, cwd);
    if (p) out.push({ path: p, relation });
  };
  for (const m of patch.matchAll(/^\*\*\* (Add|Update|Delete) File:\s*(.+)$/gm)) {
    add(m[2]!, m[1] === 'Add' ? 'created' : m[1] === 'Delete' ? 'deleted' : 'modified');
  }
  for (const m of patch.matchAll(/^\*\*\* Move to:\s*(.+)$/gm)) add(m[1]!, 'created');
  // Unified diff headers.
  const lines = patch.split(/\r?\n/);
  for (let i = 0; i < lines.length - 1; i++) {
    const a = /^--- (?:a\/)?(\S+)/.exec(lines[i]!);
    const b = /^\+\+\+ (?:b\/)?(\S+)/.exec(lines[i + 1]!);
    if (!a || !b) continue;
    if (a[1] === '/dev/null') add(b[1]!, 'created');
    else if (b[1] === '/dev/null') add(a[1]!, 'deleted');
    else {
      // First hunk header gives the touched range in the new file.
      const h = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(lines[i + 2] ?? '');
      const p = normaliseToolPath(b[1]!, cwd);
      if (p)
        out.push({
          path: p,
          relation: 'modified',
          ...(h
            ? { lines: [Number(h[1]), Number(h[1]) + Math.max(0, Number(h[2] ?? 1) - 1)] as [number, number] }
            : {}),
        });
    }
  }
  return out;
}
