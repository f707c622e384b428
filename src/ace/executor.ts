// ACE executor (docs/DESIGN.md §6): from a completed task, the code files it touched (with relations and
// line ranges, read from common tool-call shapes), its memory type (rules over goal / result /
// feedback), tags, and the entry to write. Pure and deterministic; imports only core.
import { ENTRY_TYPES, type EntryType } from '../core/document.js';
import { contentTokens, normalise, sentences, slug, titleOf } from './text.js';
import type { Classification, FileRelation, Insight, LinkedFile, TaskInput, ToolUse } from './types.js';

// ---------------------------------------------------------------------------------------------
// Files from tool usage

const RANK: Record<FileRelation, number> = { referenced: 1, read: 2, modified: 3, created: 4, deleted: 5 };

/** Tools by what they do to the file they name (names lowercased, MCP prefixes `mcp__x__` removed). */
const READ_TOOLS = new Set([
  'read',
  'read_file',
  'readfile',
  'view',
  'view_file',
  'open_file',
  'cat',
  'get_file_contents',
  'notebookread',
  'read_notebook',
  'open',
]);
const EDIT_TOOLS = new Set([
  'edit',
  'multiedit',
  'multi_edit',
  'edit_file',
  'editfile',
  'str_replace',
  'replace',
  'replace_in_file',
  'apply_diff',
  'notebookedit',
  'update_file',
  'patch_file',
  'insert',
  'search_replace',
  'write_to_file_diff',
]);
const WRITE_TOOLS = new Set([
  'write',
  'write_file',
  'writefile',
  'create_file',
  'createfile',
  'write_to_file',
  'new_file',
  'save_file',
]);
const DELETE_TOOLS = new Set(['delete', 'delete_file', 'remove_file', 'rm', 'unlink']);
const SEARCH_TOOLS = new Set([
  'grep',
  'glob',
  'search',
  'find',
  'ls',
  'list',
  'list_dir',
  'list_files',
  'codebase_search',
  'search_files',
  'file_search',
  'grep_search',
  'ripgrep',
  'find_files',
]);
const SHELL_TOOLS = new Set([
  'bash',
  'shell',
  'sh',
  'run',
  'run_command',
  'execute_command',
  'run_terminal_cmd',
  'terminal',
  'exec',
  'command',
  'local_shell',
  'container.exec',
]);
const PATCH_TOOLS = new Set(['apply_patch', 'applypatch', 'patch']);

const PATH_KEYS = [
  'file_path',
  'filePath',
  'path',
  'file',
  'filename',
  'target_file',
  'targetFile',
  'notebook_path',
  'relative_path',
  'absolute_path',
  'uri',
];
const LIST_KEYS = ['paths', 'files', 'file_paths'];

/** Looks like a file (has an extension or is a well-known extensionless file name). */
function fileLike(p: string): boolean {
  const base = p.slice(p.lastIndexOf('/') + 1);
  return (
    /\.[A-Za-z0-9]{1,10}$/.test(base) ||
    /^(Makefile|Dockerfile|Procfile|Gemfile|Rakefile|LICENSE|Jenkinsfile|\.[a-z]+rc)$/.test(base)
  );
}

/**
 * Normalise a tool path to a workspace-relative POSIX path.
 * @returns undefined for URLs, globs, paths outside `cwd`, `..` escapes and vendored folders.
 */
export function normaliseToolPath(raw: string, cwd?: string): string | undefined {
  let p = raw
    .trim()
    .replace(/^file:\/\//, '')
    .replace(/\\/g, '/');
  if (!p || /^[a-z][a-z0-9+.-]*:\/\//i.test(p) || /[*?{}[\]<>|$`]/.test(p) || p.includes('\0')) return undefined;
  p = p.replace(/^["']|["']$/g, '');
  if (/^[A-Za-z]:\//.test(p) || p.startsWith('/')) {
    const base = cwd?.replace(/\\/g, '/').replace(/\/+$/, '');
    if (!base || !(p === base || p.startsWith(`${base}/`))) return undefined;
    p = p.slice(base.length + 1);
  }
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') return undefined;
    parts.push(seg);
  }
  if (parts.length === 0) return undefined;
  if (parts.some((s) => s === 'node_modules' || s === '.git')) return undefined;
  return parts.join('/');
}

interface FileEvent {
  readonly path: string;
  readonly relation: FileRelation;
  readonly lines?: readonly [number, number];
}

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
};

/** A `[start, end]` range from the common argument shapes (offset/limit, view_range, start/end line). */
function linesFromArgs(a: Record<string, unknown>): [number, number] | undefined {
  const vr = a.view_range ?? a.viewRange ?? a.line_range ?? a.lines ?? a.range;
  if (Array.isArray(vr) && vr.length === 2) {
    const s = num(vr[0]);
    const e = num(vr[1]) ?? (vr[1] === -1 ? s : undefined);
    if (s && e && e >= s) return [s, e];
  }
  const start = num(a.start_line ?? a.startLine ?? a.line_start ?? a.lineStart ?? a.from_line ?? a.line);
  const end = num(a.end_line ?? a.endLine ?? a.line_end ?? a.lineEnd ?? a.to_line);
  if (start && end && end >= start) return [start, end];
  const offset = num(a.offset);
  const limit = num(a.limit);
  if (offset && limit) return [offset, offset + limit - 1];
  if (start) return [start, start];
  return undefined;
}

/** Line numbers of a `cat -n` style result (`  12→text`, `12\ttext`, `12: text`). */
function linesFromNumberedResult(result: unknown): [number, number] | undefined {
  if (typeof result !== 'string') return undefined;
  let lo = Infinity;
  let hi = -Infinity;
  for (const m of result.matchAll(/^\s*(\d{1,6})(?:→|\t)/gm)) {
    const n = Number(m[1]);
    if (n > 0) {
      lo = Math.min(lo, n);
      hi = Math.max(hi, n);
    }
  }
  return Number.isFinite(lo) ? [lo, hi] : undefined;
}

/** `path:line[:col]:` hits in grep-like output → referenced files with their line spans. */
function hitsFromResult(result: unknown, cwd: string | undefined): FileEvent[] {
  const text =
    typeof result === 'string'
      ? result
      : Array.isArray(result)
        ? result.filter((x) => typeof x === 'string').join('\n')
        : '';
  if (!text) return [];
  const spans = new Map<string, [number, number] | undefined>();
  for (const line of text.split(/\r?\n/).slice(0, 500)) {
    const m =
      /^([^\s:]+\.[A-Za-z0-9]{1,10}):(\d+)(?::\d+)?[:-]/.exec(line) ?? /^([^\s:]+\.[A-Za-z0-9]{1,10})\s*$/.exec(line);
    if (!m) continue;
    const p = normaliseToolPath(m[1]!, cwd);
    if (!p) continue;
    const n = m[2] ? Number(m[2]) : undefined;
    const prev = spans.get(p);
    if (n === undefined) spans.set(p, prev);
    else spans.set(p, prev ? [Math.min(prev[0], n), Math.max(prev[1], n)] : [n, n]);
  }
  return [...spans]
    .slice(0, 25)
    .map(([path, lines]) => ({ path, relation: 'referenced' as const, ...(lines ? { lines } : {}) }));
}

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
const SEARCH_CMDS = new Set(['grep', 'rg', 'ag', 'ack', 'egrep', 'fgrep', 'git-grep']);
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
function eventsFromCommand(command: string, cwd: string | undefined): FileEvent[] {
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
function eventsFromPatch(patch: string, cwd: string | undefined): FileEvent[] {
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

function argsOf(t: ToolUse): Record<string, unknown> {
  const a = t.arguments;
  if (a && typeof a === 'object' && !Array.isArray(a)) return a as Record<string, unknown>;
  if (typeof a === 'string') {
    try {
      const parsed: unknown = JSON.parse(a);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      /* a bare string argument: a command or a path */
    }
    return { input: a };
  }
  return {};
}

/** An argv array as one command line: `['bash', '-lc', 'x']` is `x`; otherwise words are quoted. */
function argvCommand(argv: readonly unknown[]): string {
  const words = argv.map(String);
  if (words.length >= 3 && /^(ba|z|da)?sh$/.test(words[0]!.replace(/^.*\//, '')) && /^-[a-z]*c$/.test(words[1]!))
    return words.slice(2).join(' ');
  return words.map((w) => (/[\s'"]/.test(w) ? `'${w.replace(/'/g, `'\\''`)}'` : w)).join(' ');
}

function toolKey(name: string): string {
  const n = name.trim().toLowerCase();
  const parts = n.split('__');
  return parts[parts.length - 1]!.replace(/^functions\./, '');
}

/** Explicit path arguments of a call. */
function namedPaths(a: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const k of PATH_KEYS) if (typeof a[k] === 'string') out.push(a[k] as string);
  for (const k of LIST_KEYS)
    if (Array.isArray(a[k])) for (const v of a[k] as unknown[]) if (typeof v === 'string') out.push(v);
  return out;
}

/** File events of one tool call. Unknown tools contribute their path-like arguments as `referenced`. */
function eventsOf(t: ToolUse, cwd: string | undefined, seen: ReadonlySet<string>): FileEvent[] {
  const key = toolKey(t.tool_name ?? '');
  const a = argsOf(t);
  const lines = linesFromArgs(a);
  const events: FileEvent[] = [];
  const push = (raw: string, relation: FileRelation, l?: readonly [number, number]) => {
    const p = normaliseToolPath(raw, cwd);
    if (p) events.push({ path: p, relation, ...(l ? { lines: l } : {}) });
  };
  const command =
    typeof a.command === 'string'
      ? a.command
      : Array.isArray(a.command)
        ? argvCommand(a.command as unknown[])
        : typeof a.cmd === 'string'
          ? a.cmd
          : undefined;

  if (key === 'str_replace_editor' || key === 'str_replace_based_edit_tool' || key === 'text_editor') {
    // Anthropic's text editor tool: the sub-command decides the relation.
    const sub = String(a.command ?? '');
    const rel: FileRelation =
      sub === 'view'
        ? 'read'
        : sub === 'create'
          ? namedPaths(a).some((p) => seen.has(normaliseToolPath(p, cwd) ?? ''))
            ? 'modified'
            : 'created'
          : 'modified';
    for (const p of namedPaths(a))
      push(p, rel, lines ?? (rel === 'modified' ? linesFromNumberedResult(t.result) : undefined));
    return events;
  }
  if (PATCH_TOOLS.has(key)) {
    const body = [a.patch, a.input, a.diff, a.content].find((v) => typeof v === 'string') as string | undefined;
    if (body) events.push(...eventsFromPatch(body, cwd));
    for (const p of namedPaths(a)) push(p, 'modified');
    return events;
  }
  if (SHELL_TOOLS.has(key) || (command !== undefined && !namedPaths(a).length)) {
    const cmd = command ?? (typeof a.input === 'string' ? a.input : undefined);
    if (cmd) {
      events.push(...eventsFromCommand(cmd, cwd));
      const first = shellWords(cmd)[0]?.[0] ?? '';
      if (SEARCH_CMDS.has(first) || first === 'git' || first === 'find') events.push(...hitsFromResult(t.result, cwd));
    }
    return events;
  }
  if (READ_TOOLS.has(key)) {
    for (const p of namedPaths(a)) push(p, 'read', lines ?? linesFromNumberedResult(t.result));
    return events;
  }
  if (EDIT_TOOLS.has(key)) {
    for (const p of namedPaths(a)) push(p, 'modified', lines ?? linesFromNumberedResult(t.result));
    return events;
  }
  if (WRITE_TOOLS.has(key)) {
    // Writing a file the task already read means it existed: modified, not created.
    for (const p of namedPaths(a)) {
      const n = normaliseToolPath(p, cwd);
      push(p, n && seen.has(n) ? 'modified' : 'created');
    }
    return events;
  }
  if (DELETE_TOOLS.has(key)) {
    for (const p of namedPaths(a)) push(p, 'deleted');
    return events;
  }
  if (SEARCH_TOOLS.has(key)) {
    for (const p of namedPaths(a)) if (fileLike(p)) push(p, 'referenced', lines);
    events.push(...hitsFromResult(t.result, cwd));
    return events;
  }
  for (const p of namedPaths(a)) if (fileLike(p)) push(p, 'referenced', lines);
  return events;
}

/**
 * Code files a task touched, one per path, in first-seen order. When a file is touched several ways
 * the strongest relation wins (deleted > created > modified > read > referenced) and line ranges
 * are merged into one span.
 */
export function extractFiles(
  toolUsage: readonly ToolUse[] | undefined,
  options: { cwd?: string; max?: number } = {},
): LinkedFile[] {
  const byPath = new Map<string, { relation: FileRelation; lines?: [number, number] }>();
  for (const t of toolUsage ?? []) {
    if (!t || typeof t !== 'object') continue;
    for (const e of eventsOf(t, options.cwd, new Set(byPath.keys()))) {
      const prev = byPath.get(e.path);
      if (!prev) {
        byPath.set(e.path, { relation: e.relation, ...(e.lines ? { lines: [e.lines[0], e.lines[1]] } : {}) });
        continue;
      }
      // Created then edited is still created; otherwise the stronger relation wins.
      if (RANK[e.relation] > RANK[prev.relation] && !(prev.relation === 'created' && e.relation === 'modified'))
        prev.relation = e.relation;
      if (e.lines)
        prev.lines = prev.lines
          ? [Math.min(prev.lines[0], e.lines[0]), Math.max(prev.lines[1], e.lines[1])]
          : [e.lines[0], e.lines[1]];
    }
  }
  const out: LinkedFile[] = [];
  for (const [path, v] of byPath) {
    out.push({ path, relation: v.relation, ...(v.lines && v.relation !== 'deleted' ? { lines: v.lines } : {}) });
  }
  // Keep the files the task changed first when there are too many to link.
  const max = options.max ?? 40;
  if (out.length <= max) return out;
  return [...out].sort((x, y) => RANK[y.relation] - RANK[x.relation]).slice(0, max);
}

// ---------------------------------------------------------------------------------------------
// Classification

interface Rule {
  readonly name: string;
  readonly type: EntryType;
  readonly re: RegExp;
  readonly weight: number;
  /** Only these fields (default: all). */
  readonly fields?: readonly ('goal' | 'result' | 'feedback')[];
}

const R = (name: string, type: EntryType, re: RegExp, weight: number, fields?: Rule['fields']): Rule => ({
  name,
  type,
  re,
  weight,
  ...(fields ? { fields } : {}),
});

/** The rules, each a regular expression over one or more task fields. Order does not matter. */
const RULES: readonly Rule[] = [
  // error_fix: something was broken and now works.
  R(
    'fix-goal',
    'error_fix',
    /^\s*(fix|resolve|debug|repair|patch|hotfix|unbreak|stop (the )?\w+ (from )?(crash|fail|throw))/i,
    3,
    ['goal'],
  ),
  R(
    'error-words',
    'error_fix',
    /\b(bug|crash(es|ed|ing)?|exception|traceback|stack ?trace|segfault|panic(ked|s)?|regression|flaky|broken|TypeError|ReferenceError|ENOENT|EADDRINUSE|ECONNREFUSED|OOM|out of memory|deadlock|race condition|(4|5)\d\d (error|response)s?|gets? an? (4|5)\d\d|error)\b/i,
    1,
  ),
  R('failing', 'error_fix', /\b(fail(s|ed|ing|ure|ures)?|threw|throws|throwing|timed? ?out|hangs?|hung)\b/i, 0.75, [
    'goal',
    'result',
  ]),
  R(
    'fixed-result',
    'error_fix',
    /\b(fixed(?! (back-?off|delay|size|rate|interval|number|width|point|window|cost))|resolved|now pass(es)?|passes now|no longer (fail|crash|throw|hang|time)s?|works? again|green again|the fix (was|is)|root cause)\b/i,
    2,
    ['result', 'feedback'],
  ),

  // discovery: something about the world was found out.
  R(
    'investigate-goal',
    'discovery',
    /^\s*(investigate|find out|figure out|explore|look into|check (why|whether|if|what)|why (does|do|is|are)|determine|research|spike|probe|measure|profile|benchmark)\b/i,
    3,
    ['goal'],
  ),
  R(
    'found-that',
    'discovery',
    /\b(found (out )?that|turns? out|turned out|discovered|noticed that|it appears|appears to|apparently|undocumented|silently|actually (returns?|sends?|uses?|is)|we (learned|found) the (api|service|server|library))\b/i,
    2,
    ['result', 'feedback'],
  ),
  R(
    'measure',
    'discovery',
    /\b(measured|profil(ed|ing)|benchmark(ed)?|p9[59]|latency of|takes? \d+ ?(ms|s)\b|\d+ ?(ms|%) (of|faster|slower))/i,
    1,
    ['result'],
  ),

  // decision: a choice between options was made.
  R('choose-goal', 'decision', /^\s*(choose|decide|pick|select|evaluate|compare|weigh|settle)\b/i, 3, ['goal']),
  R(
    'decided',
    'decision',
    /\b(decid(ed|e|ing)|decision|chose|chosen|opted (for|to)|go(ing)? with|went with|settled on|switch(ed|ing)? (to|from)|migrat(e|ed|ing) (to|from)|adopt(ed|ing)?|replac(e|ed|ing) \S+ with|in favou?r of|rather than|instead of|over \w+ because|trade-?offs?|vs\.?|versus)\b/i,
    1.5,
  ),
  R(
    'we-will',
    'decision',
    /\b(we('ll| will) (use|go|keep|stay|standardi[sz]e)|the team agreed|agreed to|approved)\b/i,
    1.5,
    ['result', 'feedback'],
  ),

  // learning: a technique or lesson for next time.
  R(
    'learned',
    'learning',
    /\b(learn(ed|t|ing)?|lesson|takeaway|TIL|realis(e|ed)|realiz(e|ed)|now (I |we )?understand|understood|next time|in (the )?future|going forward|the trick (is|was)|it helps to|works better|better to|worth (doing|it)|key insight|remember to)\b/i,
    1.5,
  ),
  R('learn-goal', 'learning', /^\s*(learn|understand why|get familiar|read up|try|experiment|prototype)\b/i, 2, [
    'goal',
  ]),

  // warning: a trap, risk or thing never to do.
  R(
    'never',
    'warning',
    /\b(never|don'?t ever|do not|don'?t|avoid|beware|careful|caution|danger(ous)?|must not|mustn'?t|will (break|corrupt|delete|wipe|lose)|data loss|irreversibl[ey]|unsafe|footgun|gotcha|watch out|not safe|destructive|wipes?|corrupts?)\b/i,
    1.5,
    ['goal', 'feedback'],
  ),
  // In a result, "never" and "don't" are usually narrative ("the job never became due"): count them
  // only as imperatives at the start of a sentence; the other warning words count anywhere.
  R('never-imperative', 'warning', /(^|[.;:!]\s+)(never|don'?t|do not|avoid)\b/i, 1.5, ['result']),
  R(
    'danger',
    'warning',
    /\b(beware|careful|caution|danger(ous)?|must not|mustn'?t|will (break|corrupt|delete|wipe|lose)|data loss|irreversibl[ey]|unsafe|footgun|gotcha|watch out|not safe|destructive|wipes?|corrupts?)\b/i,
    1.5,
    ['result'],
  ),
  R('warn-feedback', 'warning', /\b(never|don'?t|do not|avoid|be careful|dangerous|must not)\b/i, 1.5, ['feedback']),
  R(
    'risk',
    'warning',
    /\b(risk(y|s)?|could have (deleted|lost|broken)|almost (deleted|lost|broke)|near[- ]miss|production (data|database) was|without (a )?backup)\b/i,
    1.5,
  ),

  // codebase_knowledge: how this code base is put together.
  R(
    'explain-goal',
    'codebase_knowledge',
    /^\s*(explain|document|map|trace|describe|understand how|find where|locate|where (is|are|does|do)|how (does|do|is|are)|walk ?through|onboard|summari[sz]e (the|how))\b/i,
    3,
    ['goal'],
  ),
  R(
    'lives-in',
    'codebase_knowledge',
    /\b(lives? in|is defined in|are defined in|located in|entry ?point|is wired|registered in|is handled (by|in)|handles|responsible for|calls into|is called from|flows? (through|from|into)|call (graph|chain)|architecture|layers?|module(s)?|the code ?base|data flow|request flow|dispatch(es|ed)?)\b/i,
    1,
  ),
  R(
    'how-works',
    'codebase_knowledge',
    /\b(how (the )?\S+( \S+)? works|works like this|is structured|structure of|overview of|mapped (out )?the)\b/i,
    1.5,
  ),

  // preference: how a person wants things done.
  R(
    'prefer',
    'preference',
    /\b(prefer(s|red|ence)?|would rather|likes? (it|them|to|when)|wants? (it|them|us|me|to)|(code|naming|commit|writing)? ?style|convention|please (use|keep|always|don'?t|avoid|write)|(user|reviewer|maintainer|team|lead|dana|they) (asked|requested|wants|likes|prefers)|asked (me|us) to|taste|tabs|spaces|emoji|terse|concise|verbose|tone)\b/i,
    1.5,
  ),
  R(
    'prefer-feedback',
    'preference',
    /\b(I (prefer|like|want|don'?t like|hate|love)|please|from now on|always (use|write|put|name|keep))\b/i,
    2,
    ['feedback'],
  ),
];

/** Tie-break when scores are equal: the more specific types first. */
const TIE_ORDER: readonly EntryType[] = [
  'preference',
  'warning',
  'error_fix',
  'decision',
  'discovery',
  'codebase_knowledge',
  'learning',
];

const FIELD_WEIGHT = { goal: 1, result: 1, feedback: 1.5 } as const;

/**
 * Classify a completed task into one of the seven entry types with weighted rules over its goal,
 * result and feedback (feedback weighs 1.5×). Deterministic; falls back to `learning` when no
 * rule fires (or `codebase_knowledge` when the task only read code).
 */
export function classifyTask(
  input: Pick<TaskInput, 'goal' | 'result' | 'feedback'>,
  files: readonly LinkedFile[] = [],
): Classification {
  const scores = Object.fromEntries(ENTRY_TYPES.map((t) => [t, 0])) as Record<EntryType, number>;
  const fired: string[] = [];
  const fields = { goal: input.goal ?? '', result: input.result ?? '', feedback: input.feedback ?? '' };
  for (const rule of RULES) {
    for (const f of rule.fields ?? (['goal', 'result', 'feedback'] as const)) {
      const text = fields[f];
      if (!text) continue;
      const hits = text.match(
        new RegExp(rule.re.source, rule.re.flags.includes('g') ? rule.re.flags : `${rule.re.flags}g`),
      );
      if (!hits) continue;
      // Repeats count, with diminishing returns.
      const n = Math.min(hits.length, 3);
      scores[rule.type] += rule.weight * FIELD_WEIGHT[f] * (1 + (n - 1) * 0.25);
      fired.push(`${rule.name}@${f}`);
    }
  }
  // A task that changed nothing but read code is most likely about the code base.
  if (files.length && files.every((f) => f.relation === 'read' || f.relation === 'referenced')) {
    scores.codebase_knowledge += 0.75;
    fired.push('read-only-files');
  }
  let best: EntryType = 'learning';
  let top = 0;
  for (const t of TIE_ORDER) {
    if (scores[t] > top) {
      top = scores[t];
      best = t;
    }
  }
  if (top === 0) best = files.length && files.every((f) => f.relation === 'read') ? 'codebase_knowledge' : 'learning';
  const rounded = Object.fromEntries(ENTRY_TYPES.map((t) => [t, Number(scores[t].toFixed(3))])) as Record<
    EntryType,
    number
  >;
  return { type: best, scores: rounded, rules: fired };
}

// ---------------------------------------------------------------------------------------------
// Tags

/** Technology and topic words worth a tag when they appear in a task (lowercase, canonical form). */
const VOCAB: ReadonlyArray<[RegExp, string]> = [
  [/\bpostgres(ql)?\b|\bpsql\b|\bpg\b/i, 'postgres'],
  [/\bmysql\b/i, 'mysql'],
  [/\bsqlite\b/i, 'sqlite'],
  [/\bredis\b/i, 'redis'],
  [/\bmongo(db)?\b/i, 'mongodb'],
  [/\bbullmq\b/i, 'bullmq'],
  [/\bkafka\b/i, 'kafka'],
  [/\bdocker(file)?\b|\bcontainer/i, 'docker'],
  [/\bkubernetes\b|\bk8s\b|\bkubectl\b|\bhelm\b/i, 'kubernetes'],
  [/\bterraform\b/i, 'terraform'],
  [/\bgraphql\b/i, 'graphql'],
  [/\bgrpc\b/i, 'grpc'],
  [/\breact\b|\bjsx\b|\btsx\b/i, 'react'],
  [/\bnext\.?js\b/i, 'nextjs'],
  [/\bvue\b/i, 'vue'],
  [/\btypescript\b|\btsc\b|\.tsx?\b/i, 'typescript'],
  [/\bpython\b|\.py\b|\bpytest\b|\bpip\b/i, 'python'],
  [/\brust\b|\bcargo\b|\.rs\b/i, 'rust'],
  [/\bgolang\b|\bgo mod\b|\.go\b/i, 'go'],
  [/\bjest\b/i, 'jest'],
  [/\bvitest\b/i, 'vitest'],
  [/\bplaywright\b|\bcypress\b|\be2e\b/i, 'e2e'],
  [/\btests?\b|\btesting\b|\bspec\b|\bunit test|\bfixtures?\b/i, 'testing'],
  [/\bmigrations?\b/i, 'migrations'],
  [/\bschema\b/i, 'schema'],
  [/\bwebhooks?\b/i, 'webhooks'],
  [/\bauth(entication|orization)?\b|\boauth\b|\bjwt\b|\blogin\b|\bsession token/i, 'auth'],
  [/\bsecurity\b|\bxss\b|\bcsrf\b|\bsql injection\b|\bsecrets?\b|\bhmac\b|\bcve\b/i, 'security'],
  [/\bperformance\b|\blatency\b|\bslow\b|\bp9[59]\b|\bthroughput\b|\bn\+1\b|\bfaster\b/i, 'performance'],
  [/\bcach(e|es|ing)\b/i, 'caching'],
  [/\bci\b|\bgithub actions\b|\bpipeline\b|\bworkflow file/i, 'ci'],
  [/\bdeploy(s|ed|ment)?\b|\brelease\b|\bstaging\b|\bproduction\b|\bprod\b/i, 'deploy'],
  [
    /\bdependenc(y|ies)\b|\bnpm\b|\bpnpm\b|\byarn\b|\bpackage\.json\b|\bupgrade\b|\bbump(ed)?\b|\bversion \d/i,
    'dependencies',
  ],
  [/\bapi\b|\bendpoints?\b|\brest\b|\bhttp\b/i, 'api'],
  [/\bretr(y|ies|ied)\b|\bback-?off\b|\bjitter\b/i, 'retries'],
  [/\bqueues?\b|\bjobs?\b|\bworkers?\b/i, 'queues'],
  [/\btime ?zones?\b|\butc\b|\btimestamps?\b|\bdates?\b/i, 'time'],
  [/\blogg(ing|er)\b|\blogs\b/i, 'logging'],
  [/\bconfig(uration)?\b|\benv(ironment)? var/i, 'config'],
  [/\bcss\b|\bstyles?heet\b|\blayout\b|\bui\b/i, 'ui'],
  [/\bconcurren(cy|t)\b|\brace condition\b|\bdeadlock\b|\bmutex\b|\block(s|ing)?\b/i, 'concurrency'],
  [/\bmemory leak\b|\bheap\b|\bgc\b|\bout of memory\b|\boom\b/i, 'memory'],
  [/\bgit\b|\brebase\b|\bmerge conflict\b|\bcommits?\b/i, 'git'],
  [/\bdocs?\b|\bdocumentation\b|\breadme\b/i, 'docs'],
  [/\brefactor(ing|ed)?\b/i, 'refactor'],
];

/**
 * Tags for a task: the caller's tags, `#hashtags` in the text, known technology/topic words, and
 * tags already used in the workspace whose word appears in the task. Lowercase, unique, at most `max`.
 */
export function extractTags(
  input: Pick<TaskInput, 'goal' | 'result' | 'feedback' | 'tags'>,
  options: { knownTags?: readonly string[]; type?: EntryType; files?: readonly LinkedFile[]; max?: number } = {},
): string[] {
  const text = [input.goal, input.result, input.feedback ?? ''].join('\n');
  const out: string[] = [];
  const add = (t: string) => {
    const v = t.trim().replace(/^#/, '').toLowerCase();
    if (v && v.length <= 40 && /^[\p{L}\p{N}][\p{L}\p{N}_./-]*$/u.test(v) && !out.includes(v)) out.push(v);
  };
  for (const t of input.tags ?? []) add(t);
  for (const m of text.matchAll(/(?:^|\s)#([\p{L}][\p{L}\p{N}_-]{1,30})/gu)) add(m[1]!);
  const fileText = (options.files ?? []).map((f) => f.path).join(' ');
  for (const [re, tag] of VOCAB) if (re.test(text) || (tag !== 'testing' && re.test(fileText))) add(tag);
  if ((options.files ?? []).some((f) => /(^|\/)(test|tests|__tests__|spec)\/|\.(test|spec)\.[a-z]+$/.test(f.path)))
    add('testing');
  // Tags the workspace already uses, when their word occurs in the task.
  const toks = new Set(contentTokens(text));
  for (const k of options.knownTags ?? []) {
    const kt = contentTokens(k);
    if (kt.length === 1 && toks.has(kt[0]!) && k.length >= 3) add(k);
  }
  return out.slice(0, options.max ?? 8);
}

// ---------------------------------------------------------------------------------------------
// The entry to write

/** What the executor decided to write (the service renders it, dedupes it and picks the file). */
export interface EntryPlan {
  readonly type: EntryType;
  readonly classification: Classification;
  readonly title: string;
  /** `YYYY-MM-DD-<slug>`; the service appends `-2`, `-3` … on collision. */
  readonly baseId: string;
  readonly tags: readonly string[];
  readonly files: readonly LinkedFile[];
  /** Front-matter fields, in file order (id/created filled in by the service). */
  readonly data: Readonly<Record<string, unknown>>;
  /** Markdown body (starts with a blank line). */
  readonly body: string;
  /** Text compared for dedupe: goal + result + feedback, normalised. */
  readonly dedupeText: string;
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Title for a task: a short form of the goal, or of the result when the goal is generic. */
export function taskTitle(input: Pick<TaskInput, 'goal' | 'result'>): string {
  const g = titleOf(oneLine(input.goal));
  const t = g.length >= 8 ? g : titleOf(oneLine(input.result));
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/**
 * Plan the entry for a completed task: type, title, tags, linked files, front-matter and body.
 * `insights` (from the reflector) are listed in the body so recall finds them.
 */
export function planEntry(
  input: TaskInput,
  context: {
    now: Date;
    cwd?: string;
    knownTags?: readonly string[];
    insights?: readonly Insight[];
    files?: readonly LinkedFile[];
  },
): EntryPlan {
  const files = context.files ?? extractFiles(input.tool_usage, context.cwd ? { cwd: context.cwd } : {});
  const classification = classifyTask(input, files);
  const type = input.type && (ENTRY_TYPES as readonly string[]).includes(input.type) ? input.type : classification.type;
  const tags = extractTags(input, { files, type, ...(context.knownTags ? { knownTags: context.knownTags } : {}) });
  const title = taskTitle(input);
  const day = context.now.toISOString().slice(0, 10);
  const source: Record<string, string> = {};
  if (input.agent) source.agent = input.agent;
  if (input.session) source.session = input.session;
  if (input.task) source.task = input.task;
  source.origin = 'complete-task';
  const data: Record<string, unknown> = {
    type,
    title,
    tags: [...tags],
    ...(files.length
      ? {
          files: files.map((f) => ({
            path: f.path,
            relation: f.relation,
            ...(f.lines ? { lines: [...f.lines] } : {}),
          })),
        }
      : {}),
    created: context.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    source,
    goal: oneLine(input.goal),
    result: oneLine(input.result),
    ...(input.feedback?.trim() ? { feedback: oneLine(input.feedback) } : {}),
    status: 'active',
  };
  const lines: string[] = ['', `# ${title}`, '', oneLine(input.result)];
  if (input.feedback?.trim()) lines.push('', `Feedback: ${oneLine(input.feedback)}`);
  const insights = context.insights ?? [];
  if (insights.length) {
    lines.push('', '## Insights', '');
    for (const i of insights)
      lines.push(`- ${i.kind === 'root_cause' ? 'Root cause' : i.kind === 'gotcha' ? 'Gotcha' : 'Pattern'}: ${i.text}`);
  }
  if (files.length) {
    lines.push('', '## Files', '');
    for (const f of files)
      lines.push(`- \`${f.path}\` (${f.relation}${f.lines ? `, lines ${f.lines[0]}–${f.lines[1]}` : ''})`);
  }
  return {
    type,
    classification,
    title,
    baseId: `${day}-${slug(title)}`,
    tags,
    files,
    data,
    body: `${lines.join('\n')}\n`,
    dedupeText: normalise([input.goal, input.result, input.feedback ?? ''].map(oneLine).join(' \n ')),
  };
}

/** Sentences of a task field, for the reflector. */
export function taskSentences(text: string | undefined): string[] {
  return text ? sentences(text) : [];
}
