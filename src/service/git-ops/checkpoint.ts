// Checkpoint: commit the workspace's memory changes (and gitmem's own set-up files as gitmem wrote
// them), nothing else; the uncommitted-edits guard of commands that commit what they write.
// deps: core, git, engine (git-context), service (memory-text, Memory type).
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CONFIG_FILE, scaffoldConfigText } from '../../core/config.js';
import { MemoryError } from '../../core/errors.js';
import { classify } from '../../core/layout.js';
import { ATTRIBUTES_FILE, attributeRules, hasAttributeBlock, withoutAttributeBlock } from '../../git/attributes.js';
import { checkpoint as gitCheckpoint, type CheckpointResult } from '../../git/checkpoint.js';
import type { GitIdentity } from '../../git/identity.js';
import { git, toRepoPath } from '../../git/repo.js';
import { memoryStatus, type ChangeSet } from '../../git/status.js';
import { gitContext, type GitContext, type GitLocation } from '../../engine/load/git-context.js';
import type { Memory } from '../memory.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { parseMemoryText } from './memory-text.js';

export type { CheckpointResult, CommittedCheckpoint } from '../../git/checkpoint.js';
export type { SecretFinding } from '../../core/secrets.js';
export type { GitLocation } from '../../engine/load/git-context.js';

export interface CheckpointRequest {
  /** Commit only these workspace-relative memory paths (what the caller wrote); default: every change. */
  readonly paths?: readonly string[];
  readonly message?: string;
  readonly reason?: string;
  readonly force?: boolean;
  readonly author?: Partial<GitIdentity>;
  /** Pin the commit time (tests). */
  readonly timestamp?: { readonly seconds: number; readonly timezoneOffset: number };
}

/** `checkpointMemory`'s input: the repository and what to commit. */
export interface CheckpointInput extends CheckpointRequest {
  /** The repository around the workspace (`gitdir`/`workTree` undefined outside git: `git.not-a-repository`). */
  readonly git: GitLocation;
}

/** A file this checkpoint committed that the index leaves out, for its size (U68). */
export interface OversizedFile {
  readonly path: string;
  readonly bytes: number;
}

/** A checkpoint's result, with the committed files recall and validate skip (over `limits.maxFileBytes`). */
export type CheckpointReport = CheckpointResult & { readonly oversized: readonly OversizedFile[] };

/**
 * Commit the workspace's memory changes (and nothing else). Trailers carry each file's kind and id.
 * A file over `limits.maxFileBytes` is committed like any other (it is the user's, and git tracks it)
 * and listed in `oversized`, so the caller can say that recall and validate skip it (U68).
 * @returns `{kind:'nothing-to-commit'}` when memory matches HEAD.
 * @throws MemoryError `git.not-a-repository`, `git.merge-in-progress`, `git.busy`, `git.secrets-found`.
 */
export async function checkpointMemory(ctx: MemoryContext, input: CheckpointInput): Promise<CheckpointReport> {
  const { git: where, ...request } = input;
  const memory = ctx;
  const { repo, scope: memoryScope } = gitContext(memory, where);
  const wanted = request.paths ? new Set(request.paths) : undefined;
  // gitmem's own files travel with the memory (so a clone that pulls gets them), but only as gitmem
  // wrote them: `.gitattributes` differing from HEAD by gitmem's block alone, and the config init
  // wrote when HEAD has none. Any other edit of those files stays the user's to commit.
  const own = wanted ? [] : await ownSetupChanges(memory, repo, memoryScope);
  const all =
    own.length > 0 ? { ...memoryScope, accept: (p: string) => own.includes(p) || memoryScope.accept(p) } : memoryScope;
  const scope = wanted
    ? {
        prefix: all.prefix,
        accept: (p: string) => wanted.has(p),
        descend: (d: string) => [...wanted].some((p) => p.startsWith(`${d}/`)),
      }
    : all;
  const res = await gitCheckpoint(repo, {
    scope,
    ...(request.message !== undefined ? { message: request.message } : {}),
    ...(request.reason !== undefined ? { reason: request.reason } : {}),
    ...(request.force ? { force: true } : {}),
    ...(request.author ? { author: request.author } : {}),
    ...(request.timestamp ? { timestamp: request.timestamp } : {}),
    describe: describeCommitted(memory),
  });
  return { ...res, oversized: res.kind === 'committed' ? await oversized(memory, res.changes) : [] };
}

/** The added and modified regular files of `changes` over `limits.maxFileBytes`, as the loader measures them. */
async function oversized(memory: Pick<Memory, 'root' | 'config'>, changes: ChangeSet): Promise<OversizedFile[]> {
  const cap = memory.config.limits.maxFileBytes;
  const out: OversizedFile[] = [];
  for (const path of [...changes.added, ...changes.modified]) {
    const st = await lstat(join(memory.root, path)).catch(() => undefined);
    if (st?.isFile() && st.size > cap) out.push({ path, bytes: st.size });
  }
  return out;
}

/** The checkpoint's `describe`: a committed file's memory kind, and the id of an entry or playbook entry. */
export function describeCommitted(
  memory: Pick<Memory, 'loaded' | 'config'>,
): (file: { path: string; text: string }) => { kind: string; id?: string } | undefined {
  return ({ path, text }) => {
    const kind = classify(path, memory.loaded.layout);
    if (kind !== 'entry' && kind !== 'playbook') return kind ? { kind } : undefined;
    const d = parseMemoryText(memory, path, text);
    return { kind, ...(d?.meta.id !== undefined ? { id: d.meta.id } : {}) };
  };
}

/**
 * @returns the set-up files gitmem wrote and a checkpoint may share: `.gitattributes` when it holds
 * gitmem's current merge block for this layout and, with that block taken out of both, equals HEAD's
 * version (or HEAD has none); gitmem.config.json when it reads exactly what `init` writes for this
 * layout and HEAD has none; the empty `.gitkeep` files of entries/ and playbook/ when HEAD has none.
 * Only regular files count.
 */
async function ownSetupChanges(
  memory: Pick<Memory, 'root' | 'loaded'>,
  repo: GitContext['repo'],
  scope: GitContext['scope'],
): Promise<string[]> {
  const own: string[] = [];
  const attrs = await readWorkFile(memory.root, ATTRIBUTES_FILE);
  if (attrs !== undefined && hasAttributeBlock(attrs, attributeRules(memory.loaded.layout))) {
    const head = (await readAtHead(repo, scope, ATTRIBUTES_FILE)) ?? '';
    if (head !== attrs && withoutAttributeBlock(attrs).trimEnd() === withoutAttributeBlock(head).trimEnd()) {
      own.push(ATTRIBUTES_FILE);
    }
  }
  const config = await readWorkFile(memory.root, CONFIG_FILE);
  if (
    config === scaffoldConfigText(memory.loaded.layout.name) &&
    (await readAtHead(repo, scope, CONFIG_FILE)) === undefined
  ) {
    own.push(CONFIG_FILE);
  }
  // The empty `.gitkeep` init puts in entries/ and playbook/, so every clone has the folders the
  // layout names; one holding text is the user's (docs/bad-inputs.md U30).
  const dir = memory.loaded.layout.memoryDir ? `${memory.loaded.layout.memoryDir}/` : '';
  for (const keep of [`${dir}entries/.gitkeep`, `${dir}playbook/.gitkeep`]) {
    if ((await readWorkFile(memory.root, keep)) === '' && (await readAtHead(repo, scope, keep)) === undefined)
      own.push(keep);
  }
  return own;
}

/** @returns a regular file's text in the workspace, undefined when missing or not a regular file. */
async function readWorkFile(root: string, file: string): Promise<string | undefined> {
  try {
    const path = join(root, file);
    if (!(await lstat(path)).isFile()) return undefined;
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** @returns a workspace file's text at HEAD, undefined with no commit yet or no such file. */
async function readAtHead(
  repo: GitContext['repo'],
  scope: GitContext['scope'],
  file: string,
): Promise<string | undefined> {
  try {
    const oid = await git.resolveRef({ fs: repo.fs, gitdir: repo.gitdir, ref: 'HEAD' });
    const { blob } = await git.readBlob({
      fs: repo.fs,
      gitdir: repo.gitdir,
      oid,
      filepath: toRepoPath(scope, file),
      cache: repo.cache,
    });
    return new TextDecoder().decode(blob);
  } catch {
    return undefined;
  }
}

/**
 * Refuse to go on when any of `paths` (workspace-relative) already differs from HEAD: a command
 * that commits what it writes must not sweep in edits nobody reviewed. Call before writing.
 * Outside git, or with committing turned off, the caller skips this.
 * @throws MemoryError `git.uncommitted-edits` naming the files.
 */
export async function assertNoUncommittedEdits(
  memory: Pick<Memory, 'root' | 'loaded'>,
  where: GitLocation,
  paths: readonly string[],
  what: string,
): Promise<void> {
  const changes = await memoryChanges(memory, where);
  const dirty = new Set([...changes.added, ...changes.modified, ...changes.deleted]);
  const hit = paths.filter((p) => dirty.has(p));
  if (hit.length === 0) return;
  throw new MemoryError(
    'git.uncommitted-edits',
    `${what} would commit ${hit.join(', ')}, which already hold${hit.length === 1 ? 's' : ''} uncommitted edits; nothing was written`,
    {
      data: { paths: hit },
      hint: 'review and commit those edits first (`gitmem diff`, `gitmem checkpoint`), or discard them; or run again with --no-commit',
    },
  );
}

/** Memory paths that differ from HEAD (what a checkpoint would commit). */
export async function memoryChanges(memory: Pick<Memory, 'root' | 'loaded'>, where: GitLocation): Promise<ChangeSet> {
  const { repo, scope } = gitContext(memory, where);
  const s = await memoryStatus(repo, scope);
  return { added: s.added, modified: s.modified, deleted: s.deleted };
}
