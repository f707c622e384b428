// Forget = archive, never delete (docs/DESIGN.md §1 `status: archived`): set the entry's front-matter `status`
// to `archived` by rewriting only that value (or inserting that one line), so the change is a
// one-line, reviewable git diff and recall hides the entry by default. Optimistic concurrency as for
// the working state. deps: core, service siblings (engine/load/parse-cache.ts parses the result to verify it).
import { MemoryError } from '../../core/errors.js';
import type { MemoryDoc } from '../../core/document.js';
import { contentHash } from '../../core/hash.js';
import { LineIndex } from '../../core/position.js';
import { toRelPath } from '../../core/paths.js';
import { decodeText } from '../../core/text.js';
import {
  assertNoUncommittedEdits,
  checkpointMemory,
  type CheckpointResult,
  type GitLocation,
} from '../git-ops/checkpoint.js';
import { parseFiles } from '../../engine/load/parse-cache.js';
import type { MemoryContext } from '../shared/memory-context.js';

export interface ForgetResult {
  /** `unchanged`: it was already archived; nothing was written. */
  readonly status: 'archived' | 'unchanged';
  readonly id: string;
  readonly path: string;
  /** The status before (null when the entry had none). */
  readonly previous: string | null;
  /** Content hash of the file afterwards. */
  readonly hash: string;
  readonly checkpoint?: CheckpointResult;
}

function resolveEntry(docs: readonly MemoryDoc[], ref: string): MemoryDoc {
  if (docs.length > 1) {
    throw new MemoryError(
      'entry.invalid',
      `the id "${ref}" is declared by ${docs.length} entries (${docs.map((d) => d.path).join(', ')})`,
      {
        hint: 'forget it by path instead: memory/entries/<file>.md',
      },
    );
  }
  const d = docs[0];
  if (!d)
    throw new MemoryError('entry.not-found', `no memory entry "${ref}"`, {
      hint: 'recall finds ids; give an entry id or its path',
    });
  return d;
}

/** @returns `text` with front-matter `status` set to `archived`, touching nothing else. */
function withArchivedStatus(d: MemoryDoc): { text: string; previous: string | null } | 'unchanged' {
  const text = d.text;
  const eol = d.eol;
  const fm = d.frontMatter;
  if (!fm) return { text: `---${eol}status: archived${eol}---${eol}${text}`, previous: null };
  if (fm.language !== 'yaml' || !fm.data) {
    throw new MemoryError(
      'entry.invalid',
      `${d.path} has front-matter that is not a valid YAML mapping; fix it before archiving`,
      { data: { path: d.path } },
    );
  }
  const li = new LineIndex(text);
  const prev = fm.data.status;
  const node = fm.nodes['/status'];
  if (node) {
    if (prev === 'archived') return 'unchanged';
    const start = li.offsetAt(node.value.start);
    const end = li.offsetAt(node.value.end);
    return {
      text: `${text.slice(0, start)}archived${text.slice(end)}`,
      previous: typeof prev === 'string' ? prev : JSON.stringify(prev ?? null),
    };
  }
  // No status yet: one new line just before the closing delimiter.
  for (let l = fm.range.end.line; l > fm.range.start.line; l--) {
    if (/^(?:---|\.\.\.)[ \t]*$/.test(li.lineText(l))) {
      const at = li.offsetAt({ line: l, character: 0 });
      return { text: `${text.slice(0, at)}status: archived${eol}${text.slice(at)}`, previous: null };
    }
  }
  throw new MemoryError('entry.invalid', `cannot find the end of the front-matter in ${d.path}`, {
    data: { path: d.path },
  });
}

/** `forgetEntry`'s input: the entry, and whether (and with which message) to commit the change. */
export interface ForgetInput {
  /** Entry id, or the entry file's workspace-relative path. */
  readonly ref: string;
  /** Commit the change (a string: the commit message); needs `git`. */
  readonly commit?: boolean | string;
  readonly git?: GitLocation;
}

/**
 * Archive the entry `ref` (an id, or a workspace-relative path). Never deletes; rewrites only the
 * `status` value.
 * @throws MemoryError `entry.not-found`, `entry.invalid` (ambiguous id, not an entry, bad front-matter),
 *   `fs.conflict` (the file changed while archiving), `git.*` with `commit` (`git.uncommitted-edits`
 *   when the entry already differs from HEAD; nothing is written then).
 */
export async function forgetEntry(ctx: MemoryContext, input: ForgetInput): Promise<ForgetResult> {
  const { ref, ...options } = input;
  const memory = ctx;
  const fs = ctx.fs;
  const r = ref.trim();
  if (!r) throw new MemoryError('usage', 'give the id or path of the entry to forget');
  const ws = await memory.workspace();
  const d = /\.md$/i.test(r)
    ? resolveEntry(
        [ws.tryGet(toRelPath(r))].filter((x): x is MemoryDoc => x !== undefined),
        r,
      )
    : resolveEntry(ws.byId(r), r);
  if (d.kind !== 'entry') {
    throw new MemoryError(
      'entry.invalid',
      `${d.path} is a ${d.kind} document, not a memory entry; only entries are archived this way`,
      {
        hint: d.kind === 'playbook' ? 'retire a playbook entry with `active: false`' : 'edit the file itself',
      },
    );
  }
  const id = d.meta.id ?? d.path;
  const edit = withArchivedStatus(d);
  if (edit === 'unchanged') return { status: 'unchanged', id, path: d.path, previous: 'archived', hash: d.contentHash };

  // The edit must read back as an archived entry with every other field as it was.
  const check = parseFiles(
    [{ path: d.path, kind: d.kind, text: edit.text, hash: contentHash(edit.text) }],
    memory.config,
  ).tryGet(d.path);
  const before = { ...(d.frontMatter?.data ?? {}) };
  const after = { ...(check?.frontMatter?.data ?? {}) };
  delete before.status;
  delete after.status;
  if (check?.meta.status !== 'archived' || JSON.stringify(before) !== JSON.stringify(after)) {
    throw new MemoryError('entry.invalid', `archiving ${d.path} would change more than its status; edit it by hand`, {
      data: { path: d.path },
    });
  }

  // With commit, the commit holds this one-line change only: refuse (before writing) when the entry
  // already holds edits nobody reviewed, and commit no other pending memory file (U35).
  if (options.commit && options.git?.gitdir) await assertNoUncommittedEdits(memory, options.git, [d.path], 'forget');
  const bytes = await fs.read(d.path);
  const current = bytes ? decodeText(bytes).text : undefined;
  if (current === undefined || contentHash(current) !== d.contentHash) {
    throw new MemoryError('fs.conflict', `${d.path} changed while it was being archived; nothing was written`, {
      data: { path: d.path },
      hint: 'run memory_forget again',
    });
  }
  const out = `${d.hasBom ? '\uFEFF' : ''}${edit.text}`;
  await fs.writeTextAtomic(d.path, out);
  const result: ForgetResult = {
    status: 'archived',
    id,
    path: d.path,
    previous: edit.previous,
    hash: contentHash(out),
  };
  if (!options.commit) return result;
  if (!options.git?.gitdir) {
    throw new MemoryError(
      'git.not-a-repository',
      `${memory.root} is not in a git work tree; the entry was archived but not committed`,
    );
  }
  const cp = await checkpointMemory(ctx, {
    git: options.git,
    paths: [d.path],
    message: typeof options.commit === 'string' ? options.commit : `memory: archive ${id}`,
  });
  return { ...result, checkpoint: cp };
}
