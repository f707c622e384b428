// ACE executor, files from tool usage: the code files a completed task touched, with their relation
// (referenced, read, modified, created, deleted) and line ranges, read from common tool-call shapes.
// Pure and deterministic.
import type { FileRelation, LinkedFile, ToolUse } from './types.js';
import { fileLike, normaliseToolPath, toolPathBase, type FileEvent, type ToolPathBase, num } from './tool-paths.js';
import { shellWords, SEARCH_CMDS, eventsFromCommand, eventsFromPatch } from './shell-events.js';

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
function hitsFromResult(result: unknown, cwd: ToolPathBase | undefined): FileEvent[] {
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
function eventsOf(t: ToolUse, cwd: ToolPathBase | undefined, seen: { has(path: string): boolean }): FileEvent[] {
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
 * are merged into one span. Absolute paths count under `root` (the workspace) only; relative ones
 * are under `cwd`, the folder the agent worked in (see toolPathBase). Without `root`, `cwd` is it.
 */
export function extractFiles(
  toolUsage: readonly ToolUse[] | undefined,
  options: { root?: string; cwd?: string; max?: number } = {},
): LinkedFile[] {
  const base = toolPathBase(options.root, options.cwd);
  const byPath = new Map<string, { relation: FileRelation; lines?: [number, number] }>();
  for (const t of toolUsage ?? []) {
    if (!t || typeof t !== 'object') continue;
    // The map itself answers "seen before?": a copy of its keys per call was quadratic (U25).
    for (const e of eventsOf(t, base, byPath)) {
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
