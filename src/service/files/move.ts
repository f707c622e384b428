// `gitmem mv OLD NEW`: move a memory file or folder and rewrite every link that named it
// (service/files/rename.ts plans the edits). Guards, as every write path: paths are confined to the root
// (the file system refuses anything else), a new name may not hold a credential, a memory file must
// stay memory, and the result is validated before anything is written — a move that would break a link or add an error is refused.
// `dryRun` returns the same report without writing. deps: core, validate, engine, service (shared).
import { compareDiagnostics, type Diagnostic } from '../../core/diagnostics.js';
import { MemoryError } from '../../core/errors.js';
import { contentHash } from '../../core/hash.js';
import { classify } from '../../core/layout.js';
import { refuseSecretsInWrite } from '../../core/secrets.js';
import { toNewRelPath, toRelPath, type RelPath } from '../../core/paths.js';
import { LineIndex } from '../../core/position.js';
import { validateWorkspace } from '../../validate/validate.js';
import { parseFiles } from '../../engine/load/parse-cache.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { listFiles, moveFile, writeMemoryFile } from '../shared/memory-files.js';
import { refuseHeldBreaks } from './held-files.js';
import { applyEdits, planMoves, type FileEdit, type FileMove } from './rename.js';

/** One changed line, for people and `--json`: 1-based line in the file before the move. */
export interface LineChange {
  readonly path: RelPath;
  readonly line: number;
  readonly before: string;
  readonly after: string;
}

export interface MoveReport {
  readonly moves: readonly FileMove[];
  /** Raw edits (0-based UTF-16 ranges in the files before the move). */
  readonly edits: readonly FileEdit[];
  /** The same edits as whole lines. */
  readonly lines: readonly LineChange[];
  readonly applied: boolean;
}

/** What `gitmem mv` moves: `from` and `to` are workspace-relative (a file or a folder). */
export interface MoveInput {
  readonly from: string;
  readonly to: string;
  /** Return the report without writing. */
  readonly dryRun?: boolean;
  /** Runs the writes as one unit (the CLI: a Ctrl-C waits for the whole move, B53). */
  readonly oneWrite?: (apply: () => Promise<void>) => Promise<void>;
}

/** What a move has done so far: the renames, and each rewritten file (at its new name) with its text before. */
interface Done {
  readonly moved: FileMove[];
  readonly written: { readonly path: RelPath; readonly text: string }[];
}

/**
 * Undo `done` after `cause` stopped a move (U67): the rewritten files get their text back, newest
 * first, then the moved files their names. @returns the error to throw: `cause`'s code, saying what was
 * rolled back, or naming each file that could not be put back and where it is now.
 */
async function rollBack(ctx: MemoryContext, done: Done, cause: unknown, what: string): Promise<MemoryError> {
  const left: string[] = [];
  for (const w of [...done.written].reverse()) {
    try {
      await writeMemoryFile(ctx, w.path, w.text);
    } catch (e) {
      left.push(`${w.path} keeps its rewritten links (${(e as Error).message})`);
    }
  }
  for (const m of [...done.moved].reverse()) {
    try {
      await moveFile(ctx, m.to, m.from);
    } catch (e) {
      left.push(`${m.from} is still at ${m.to} (${(e as Error).message})`);
    }
  }
  const reason = cause instanceof Error ? cause.message : String(cause);
  const code = cause instanceof MemoryError ? cause.code : 'fs.write-failed';
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  const undone = `${n(done.moved.length, 'file', 'files')} moved back, ${n(done.written.length, 'rewritten file', 'rewritten files')} restored`;
  if (left.length === 0)
    return new MemoryError(code, `${what}: ${reason}; rolled back: ${undone}; nothing lost`, {
      cause,
      data: { rolledBack: true, moved: done.moved.length, restored: done.written.length },
    });
  return new MemoryError(
    code,
    `${what}: ${reason}; the roll-back did not finish, put these back by hand:\n  ${left.join('\n  ')}`,
    { cause, data: { rolledBack: false, left } },
  );
}

/** Error diagnostics and unresolved links, keyed so that before and after compare across a move. */
function problems(diags: readonly Diagnostic[], renamed: (p: RelPath) => RelPath): Set<string> {
  const out = new Set<string>();
  for (const d of diags) {
    if (d.severity === 'error' || d.code === 'memory.link.unresolved')
      out.add(`${renamed(d.path)}\u0000${d.code}\u0000${d.message}`);
  }
  return out;
}

/**
 * Plan (and unless `dryRun`, perform) moving `from` to `to`, a file or a folder.
 * @throws MemoryError `fs.not-found` (nothing at `from`), `path.not-memory` (a memory file would
 * leave memory), `usage` (destination exists, moving into itself), `entry.invalid` (the result
 * would break links or fail validation; nothing written), `path.outside-root`, `fs.write-failed`.
 */
export async function moveMemory(ctx: MemoryContext, input: MoveInput): Promise<MoveReport> {
  const { from, to, ...options } = input;
  const a = toRelPath(from.replace(/\/+$/, ''));
  const b = toNewRelPath(to.replace(/\/+$/, '')); // a backslash is not a folder here (U63)
  const ws = await ctx.workspace();
  const files = new Set<string>(await listFiles(ctx));
  const isFile = files.has(a);
  if (!isFile && ![...files].some((p) => p.startsWith(`${a}/`)))
    throw new MemoryError('fs.not-found', `nothing to move at ${a}`);
  // `mv file folder/` semantics: moving onto an existing folder puts the file inside it.
  const dest = isFile && [...files].some((p) => p.startsWith(`${b}/`)) ? toRelPath(`${b}/${a.split('/').pop()!}`) : b;
  const plan = planMoves(ws, [{ from: a, to: dest }], files);
  if (plan.moves.length === 0) return { moves: [], edits: [], lines: [], applied: false };
  await refuseHeldBreaks(ctx, ws, { from: a, to: dest }, files); // files outside a sparse checkout (R80)
  const layout = ctx.loaded.layout;
  // Missing folders of a destination are made (inside the root, by the file system), but a file
  // standing where one of them would be fails the move of that file only, after others have moved:
  // check every destination first (U50).
  for (const m of plan.moves) {
    const parts = m.to.split('/');
    for (let i = 1; i < parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      if (!files.has(folder)) continue;
      throw new MemoryError(
        'path.invalid',
        `cannot move ${a} to ${dest}: ${folder} is a file, not a folder; nothing moved`,
        { data: { file: folder }, hint: 'choose a destination under folders (or not yet existing ones)' },
      );
    }
  }
  // A new name is written like any file name: one that holds a credential is refused before the
  // first move (U47), as remember and every write through the workspace file system refuse it.
  for (const m of plan.moves) refuseSecretsInWrite(m.to, '');
  for (const m of plan.moves) {
    if (classify(m.from, layout) && !classify(m.to, layout)) {
      throw new MemoryError(
        'path.not-memory',
        `${m.to} is not a memory path in the ${layout.name} layout; ${m.from} would stop being memory`,
      );
    }
  }

  // The workspace after the move, validated like any write.
  const byPath = new Map<RelPath, FileEdit[]>();
  for (const e of plan.edits) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
  const moved = new Map(plan.moves.map((m) => [m.from, m.to]));
  const renamed = (p: RelPath) => moved.get(p) ?? p;
  const nextText = new Map<RelPath, string>();
  for (const [p, edits] of byPath) nextText.set(p, applyEdits(ws.tryGet(p)!.text, edits));
  const after = parseFiles(
    ws.docs().flatMap((d) => {
      const path = renamed(d.path);
      const kind = classify(path, layout);
      const text = nextText.get(d.path) ?? d.text;
      return kind ? [{ path, kind, text, hash: contentHash(text) }] : [];
    }),
    ctx.config,
  );
  const filesAfter = new Set([...files].map((p) => renamed(p as RelPath)));
  const exists = (p: RelPath) => filesAfter.has(p);
  const before = problems(validateWorkspace(ws, { exists: (p) => files.has(p) }), renamed);
  const introduced = validateWorkspace(after, { exists })
    .filter((d) => d.severity === 'error' || d.code === 'memory.link.unresolved')
    .filter((d) => !before.has(`${d.path}\u0000${d.code}\u0000${d.message}`))
    .sort(compareDiagnostics);
  if (introduced.length) {
    const shown = introduced.slice(0, 5).map((d) => `${d.path}:${d.range.start.line + 1} ${d.message}`);
    throw new MemoryError(
      'entry.invalid',
      `moving ${a} to ${dest} would leave problems; nothing moved:\n  ${shown.join('\n  ')}`,
      {
        data: { diagnostics: introduced.map(({ path, range, code, message }) => ({ path, range, code, message })) },
      },
    );
  }

  const lines: LineChange[] = [];
  for (const [p, edits] of byPath) {
    const old = new LineIndex(ws.tryGet(p)!.text);
    const neu = nextText.get(p)!.split(/\r?\n/);
    const touched = [...new Set(edits.map((e) => e.range.start.line))].sort((x, y) => x - y);
    // Line numbers stay put: rename edits never add or remove line breaks (an inserted `id:` line is
    // reported as a change of the closing delimiter line).
    for (const l of touched) lines.push({ path: p, line: l + 1, before: old.lineText(l), after: neu[l] ?? '' });
  }
  // Every guard of the rewrites before the first move: a file that is not valid UTF-8 (its text here
  // has U+FFFD for those bytes) is refused with nothing moved, never rewritten (R55).
  for (const [p, text] of nextText) await ctx.fs.checkWrite(p, (ws.tryGet(p)!.hasBom ? '\uFEFF' : '') + text);
  if (options.dryRun) return { moves: plan.moves, edits: plan.edits, lines, applied: false };

  // Move first (nothing is edited if a move fails), then write the edited files at their new names:
  // one unit the caller may keep from being stopped half-way (`oneWrite`, B53), and all or nothing:
  // a write that fails part-way undoes what was done before it (U67).
  const apply = async (): Promise<void> => {
    const done: Done = { moved: [], written: [] };
    try {
      for (const m of plan.moves) {
        await moveFile(ctx, m.from, m.to);
        done.moved.push(m);
      }
      for (const [p, text] of nextText) {
        const doc = ws.tryGet(p)!;
        const bom = doc.hasBom ? '\uFEFF' : '';
        await writeMemoryFile(ctx, renamed(p), bom + text);
        done.written.push({ path: renamed(p), text: bom + doc.text });
      }
    } catch (e) {
      if (done.moved.length === 0) throw e; // the first rename failed: nothing to undo
      throw await rollBack(ctx, done, e, `cannot move ${a} to ${dest}`);
    }
  };
  await (options.oneWrite ? options.oneWrite(apply) : apply());
  return { moves: plan.moves, edits: plan.edits, lines, applied: true };
}
