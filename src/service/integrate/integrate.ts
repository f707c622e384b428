// `gitmem integrate <host>`: write (or, with remove, take out) the project-level files an agent host
// reads — MCP registration, lifecycle hooks, the instruction block (service/integrate/hosts.ts) —
// merged into what a person wrote. Idempotent; a dry run returns the diff and writes nothing. What a
// run wrote is recorded (the file's bytes before and after) in the workspace's derived-state folder,
// so `remove` restores each file byte for byte while nobody changed it since, and otherwise takes
// out exactly gitmem's keys and blocks. Writes only under `base` (the repository, or the home folder
// with --user). deps: service/integrate, ace (unified-diff), node:fs, node:path.
import { mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { unifiedDiff } from '../../ace/unified-diff.js';
import { addBlock, addJson, assertToml, EditError, removeBlock, removeJson } from './edits.js';
import { assertCodexResult, inspectCodexToml } from './codex-toml.js';
import { HOSTS, hostEdits, mcpServer, serverStart, userPath, type FileEdit, type HostName } from './hosts.js';
import { assertWritable, confined, isLink, makeDirs, read, writeAtomic } from './project-files.js';

export { EditError } from './edits.js';

export interface IntegrateOptions {
  readonly host: HostName;
  /** The repository root: project files are written here. */
  readonly root: string;
  /**
   * The git work tree that holds `root` (undefined: none). When `root` is a folder below it, hosts that
   * start the server where the agent runs get `--dir .` (hosts.ts ServerStart).
   */
  readonly workTree?: string;
  /** Where the record of what was written lives (the workspace's derived-state folder). */
  readonly stateDir: string;
  /** Write the user-level files under this folder (the home folder) instead of the repository's. */
  readonly userHome?: string;
  /** The command that starts gitmem in hooks and the MCP registration (default `gitmem`). */
  readonly command?: string;
  readonly dryRun?: boolean;
  readonly remove?: boolean;
}

/** One file of the result. */
export interface FileChange {
  /** Path relative to the base folder (the repository, or home with --user). */
  readonly path: string;
  /** Absolute path. */
  readonly file: string;
  readonly action: 'create' | 'update' | 'unchanged' | 'delete' | 'restore';
  /** Unified diff of the change ('' when unchanged). */
  readonly diff: string;
}

export interface IntegrateResult {
  readonly host: HostName;
  readonly base: string;
  readonly user: boolean;
  readonly dryRun: boolean;
  readonly removed: boolean;
  readonly files: FileChange[];
  /** What was left alone and why (a key someone else set, a host without a user-level file, …). */
  readonly notes: string[];
}

interface Record_ {
  /** Per path: the bytes before the first write (null: no file) and after the last one. */
  files: Record<string, { before: string | null; after: string }>;
  /** Folders gitmem created (removed again when empty). */
  dirs: string[];
}

function applyEdit(edit: FileEdit, old: string | undefined, notes: string[]): string {
  switch (edit.kind) {
    case 'json': {
      const r = addJson(old, edit.additions, edit.path);
      for (const c of r.conflicts) notes.push(`${edit.path}: "${c}" already holds another value; left as it is`);
      return r.text;
    }
    case 'toml':
      return addBlock(old, edit.body, edit.markers);
    case 'markdown':
      return addBlock(old, edit.body, edit.markers, edit.preamble);
  }
}

function undoEdit(edit: FileEdit, old: string): string | undefined {
  switch (edit.kind) {
    case 'json':
      return removeJson(old, edit.additions, edit.path);
    case 'toml':
      return removeBlock(old, edit.markers);
    case 'markdown':
      return removeBlock(old, edit.markers, edit.preamble);
  }
}

/** Plan and (unless a dry run) write the integration; see the module comment. @throws EditError */
export function integrate(o: IntegrateOptions): IntegrateResult {
  const base = resolve(o.userHome ?? o.root);
  const recordFile = join(o.stateDir, 'integrate', `${o.host}${o.userHome ? '-user' : ''}.json`);
  const record: Record_ = JSON.parse(read(recordFile) ?? '{"files":{},"dirs":[]}') as Record_;
  const notes: string[] = [];
  const { edits, server } = editsFor(o, base, notes);

  const files: FileChange[] = [];
  const planned: { file: string; path: string; before: string | undefined; after: string | undefined }[] = [];
  for (const e of edits) {
    const file = confined(base, e.path);
    const before = read(file);
    let after: string | undefined;
    let action: FileChange['action'];
    if (!o.remove) {
      after = applyEdit(e, before, notes);
      // The TOML written must parse and declare the server (R53): else refuse, nothing written.
      if (e.kind === 'toml') assertCodexResult(after, e.body, server);
      action = before === undefined ? 'create' : before === after ? 'unchanged' : 'update';
    } else {
      if (before === undefined) continue;
      const sharer = sharedWith(o.stateDir, o.host, o.userHome !== undefined, e.path);
      if (sharer) {
        notes.push(
          `${e.path}: gitmem integrate ${sharer} uses it too; left as it is (remove that one too to take it out)`,
        );
        continue;
      }
      const rec = record.files[e.path];
      const restored = rec !== undefined && rec.after === before;
      after = restored ? (rec.before ?? undefined) : undoEdit(e, before);
      // A linked config is the person's file: left without gitmem's part, never deleted, so the link
      // keeps a file to point to (R74, R110)
      if (after === undefined && isLink(resolve(base, e.path))) after = e.kind === 'json' ? '{}\n' : '';
      action = after === undefined ? 'delete' : before === after ? 'unchanged' : restored ? 'restore' : 'update';
    }
    // a read-only file is the person's (R73): refused before anything is written
    if (before !== after) assertWritable(file, e.path);
    files.push({ path: e.path, file, action, diff: unifiedDiff(e.path, before, after) });
    planned.push({ file, path: e.path, before, after });
  }
  const result: IntegrateResult = {
    host: o.host,
    base,
    user: o.userHome !== undefined,
    dryRun: o.dryRun === true,
    removed: o.remove === true,
    files,
    notes: [...new Set(notes)],
  };
  if (o.dryRun) return result;

  // Write (same files, several edits: planned holds each path once per host).
  for (const p of planned) {
    if (p.before === p.after) continue;
    if (p.after === undefined) rmSync(p.file, { force: true });
    else {
      record.dirs.push(...makeDirs(dirname(p.file), base).map((d) => relative(base, d)));
      writeAtomic(p.file, p.after);
    }
  }
  if (!o.remove)
    for (const [i, p] of planned.entries()) {
      // every file this host relies on is recorded, also one it found already as it wants it (another
      // host's run wrote it): a later --remove of that other host then leaves it alone. The bytes
      // before the first run hold only while nobody changed the file since gitmem last wrote it: once
      // a person added lines, "before" is the file without gitmem's part, so --remove keeps them (R37)
      const prev = record.files[p.path];
      const before =
        prev && prev.after === p.before
          ? prev.before
          : p.before === p.after
            ? (sharedBefore(o.stateDir, o.host, o.userHome !== undefined, p.path, p.after!) ??
              undoEdit(edits[i]!, p.after!) ??
              null)
            : (p.before ?? null);
      record.files[p.path] = { before, after: p.after! };
    }
  if (o.remove) {
    // folders gitmem made, innermost first, while empty
    for (const d of [...new Set(record.dirs)].sort((a, b) => b.length - a.length)) {
      try {
        rmdirSync(join(base, d));
      } catch {
        // not empty (someone put a file there) or already gone: leave it
      }
    }
    rmSync(recordFile, { force: true });
  } else {
    record.dirs = [...new Set(record.dirs)];
    mkdirSync(dirname(recordFile), { recursive: true });
    writeAtomic(recordFile, `${JSON.stringify(record, null, 2)}\n`);
  }
  return result;
}

/** What to do instead where a host keeps a user-level setting outside a file gitmem writes. */
const USER_HINT: Partial<Record<HostName, string>> = {
  'claude-code': ' (register the server with `claude mcp add --scope user gitmem -- gitmem mcp`)',
};

/**
 * The edits this run makes (mapped to the user-level files with --user; a host with none throws
 * EditError) and the server registration they hold. Notes what the person must do by hand.
 */
function editsFor(
  o: IntegrateOptions,
  base: string,
  notes: string[],
): { edits: FileEdit[]; server: { command: string; args: string[] } } {
  const configToml = read(join(base, '.codex', 'config.toml'));
  if (o.host === 'codex' && !o.remove) assertToml(configToml, '.codex/config.toml');
  const codex = o.host === 'codex' && !o.remove ? inspectCodexToml(stripBlock(configToml ?? '')) : undefined;
  if (codex?.note) notes.push(codex.note);
  const gitmem = o.command ?? 'gitmem';
  const pinned = !o.userHome && o.workTree !== undefined && resolve(o.workTree) !== resolve(o.root);
  const start = serverStart(o.host, pinned);
  if (start === 'pinned' && !o.remove)
    notes.push(
      `the MCP server is registered with --dir . (this workspace is below its repository's root): start ${o.host} in ${o.root}`,
    );
  const user = o.userHome !== undefined;
  const edits = hostEdits(o.host, { gitmem, tomlHasFeatures: codex?.hasFeatures === true, pinned, user });
  const server = mcpServer(gitmem, start);
  if (!o.userHome) return { edits, server };
  const mapped: FileEdit[] = [];
  for (const e of edits) {
    const p = userPath(o.host, e.path);
    if (p) mapped.push({ ...e, path: p });
    else notes.push(`${e.path}: ${o.host} has no user-level file for this; not written${USER_HINT[o.host] ?? ''}`);
  }
  if (!mapped.length) throw new EditError(`${o.host} has no user-level files gitmem can write; run without --user`);
  return { edits: mapped, server };
}

/** Another host whose integration (still recorded) wrote `path` too. */
function sharedWith(stateDir: string, host: HostName, user: boolean, path: string): string | undefined {
  for (const other of HOSTS) {
    if (other === host) continue;
    const text = read(join(stateDir, 'integrate', `${other}${user ? '-user' : ''}.json`));
    if (text && path in (JSON.parse(text) as Record_).files) return other;
  }
  return undefined;
}

/**
 * The person's bytes of `path` as another host's run recorded them, when that run left the file as it
 * is now (`text`): a file two hosts share is then given back byte for byte by whichever host is
 * removed last (R171). undefined when no other record holds them.
 */
function sharedBefore(
  stateDir: string,
  host: HostName,
  user: boolean,
  path: string,
  text: string,
): string | null | undefined {
  for (const other of HOSTS) {
    if (other === host) continue;
    const rec = read(join(stateDir, 'integrate', `${other}${user ? '-user' : ''}.json`));
    const file = rec ? (JSON.parse(rec) as Record_).files[path] : undefined;
    if (file && file.after === text) return file.before;
  }
  return undefined;
}

/** TOML text without gitmem's own block (so a second run does not see its own tables as someone else's). */
function stripBlock(text: string): string {
  const from = text.indexOf('# >>> gitmem integrate');
  const to = text.indexOf('# <<< gitmem integrate');
  return from >= 0 && to > from ? text.slice(0, from) + text.slice(to) : text;
}
