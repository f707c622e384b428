// Dreams applied to the workspace (fn(ctx, input) over its MemoryContext): write the planner's proposals to DREAMS.md, promote one (with the diff
// it makes) or reject it. deps: core, ace, git, parse, service.
import { MemoryError } from '../../core/errors.js';
import {
  applyAction,
  parseDreams,
  staleEvidence,
  withProposals,
  withProposalStatus,
} from '../../ace/dreams-document.js';
import { planDreams, type DreamAction, type DreamKind, type DreamProposal } from '../../ace/dreams.js';
import { unifiedDiff } from '../../ace/unified-diff.js';
import { withFrontMatterKey } from '../../parse/front-matter-edit.js';
import { assertNoUncommittedEdits, type GitLocation } from '../git-ops/checkpoint.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { writeMemoryFile } from '../shared/memory-files.js';
import { repeatOf } from '../shared/dedupe-policy.js';
import { type AceWriteOptions, oneLine, singleFilePath, diskText, committer } from './ace.js';

// ---------------------------------------------------------------------------------------------
// Dreams

export interface DreamResult {
  /** DREAMS.md path. */
  readonly path: string;
  /** New proposals written by this pass. */
  readonly proposals: readonly DreamProposal[];
  /** Proposals already in DREAMS.md, by status. */
  readonly existing: { readonly proposed: number; readonly promoted: number; readonly rejected: number };
  readonly diff: string;
  readonly commit: string | null;
}

/** `dream`'s input: the repository, the write options and the planner's knobs. */
export interface DreamInput extends AceWriteOptions {
  readonly git: GitLocation;
  /** Tells whether a code path exists (enables "linked code gone" retirements). */
  readonly exists?: (path: string) => boolean;
  readonly staleDays?: number;
  readonly maxPerKind?: number;
}

/** `promoteProposal`'s and `rejectProposal`'s input: the repository, the proposal id and the write options. */
export interface ProposalInput extends AceWriteOptions {
  readonly git: GitLocation;
  /** The proposal's id in DREAMS.md (`d-1a2b3c4d`). */
  readonly id: string;
}

/**
 * A dream pass: plan promotions, merges and retirements (src/ace/dreams.ts) and append the new
 * ones to DREAMS.md (proposals already there, in any status, are not repeated).
 */
export async function dream(ctx: MemoryContext, input: DreamInput): Promise<DreamResult> {
  const { git: where, ...options } = input;
  const memory = ctx;
  const ws = await memory.workspace();
  const now = options.now ?? new Date();
  const path = singleFilePath(memory, ws, 'dreams');
  const doc = ws.tryGet(path as never);
  const existing = doc ? parseDreams(doc.text) : [];
  // Merges ask the one dedupe policy, by meaning from the vectors the index stores (none: by text).
  const semantic = ctx.semantic;
  await semantic?.start();
  const proposals = planDreams(
    ws,
    {
      now,
      repeatOf: (older, newer) => repeatOf(older, newer, memory.config.dedupe, semantic),
      longTermPath: singleFilePath(memory, ws, 'long_term'),
      ...(options.exists ? { exists: options.exists } : {}),
      ...(options.staleDays !== undefined ? { staleDays: options.staleDays } : {}),
      ...(options.maxPerKind !== undefined ? { maxPerKind: options.maxPerKind } : {}),
    },
    existing,
  );
  const counts = {
    proposed: existing.filter((p) => p.status === 'proposed').length,
    promoted: existing.filter((p) => p.status === 'promoted').length,
    rejected: existing.filter((p) => p.status === 'rejected').length,
  };
  if (!proposals.length) return { path, proposals, existing: counts, diff: '', commit: null };
  const git = committer(memory, where, options);
  // The pass commits DREAMS.md whole: never with someone's unreviewed edits in it (U21).
  if (git.enabled) await assertNoUncommittedEdits(memory, where, [path], 'the dream pass');
  const next = withProposals(doc?.text, proposals, doc?.eol ?? '\n');
  await writeMemoryFile(ctx, path, diskText(doc, next));
  const commit = await git.commit(
    [path],
    `memory: dream — ${proposals.length} proposal${proposals.length === 1 ? '' : 's'}`,
    summariseKinds(proposals),
    { 'Memory-Origin': 'dream' },
  );
  return { path, proposals, existing: counts, diff: unifiedDiff(path, doc?.text, next), commit };
}

function summariseKinds(ps: readonly DreamProposal[]): string {
  const n = (k: DreamKind) => ps.filter((p) => p.kind === k).length;
  return [`${n('promotion')} promotions`, `${n('merge')} merges`, `${n('retirement')} retirements`].join(', ');
}

export interface ProposalDecision {
  readonly id: string;
  readonly kind: DreamKind;
  readonly status: 'promoted' | 'rejected';
  readonly action: DreamAction | null;
  /** Files written (the action's target, then DREAMS.md). */
  readonly files: readonly string[];
  /** Unified diff of every file written: what a reviewer reads. */
  readonly diff: string;
  readonly commit: string | null;
}

async function findProposal(memory: MemoryContext, id: string) {
  if (!id || !id.trim()) throw new MemoryError('usage', 'a proposal id is required (see DREAMS.md, e.g. d-1a2b3c4d)');
  const ws = await memory.workspace();
  const path = singleFilePath(memory, ws, 'dreams');
  const doc = ws.tryGet(path as never);
  const proposals = doc ? parseDreams(doc.text) : [];
  const p = proposals.find((x) => x.id === id.trim());
  if (!doc || !p) {
    throw new MemoryError('entry.not-found', `no dream proposal "${id}" in ${path}`, {
      hint: proposals.length
        ? `known proposals: ${proposals
            .slice(0, 5)
            .map((x) => x.id)
            .join(', ')}`
        : 'run gitmem dream first',
    });
  }
  // Not a usage error: the command was right, the proposal was decided before (exit 1).
  if (p.status !== 'proposed') {
    throw new MemoryError('entry.invalid', `proposal ${p.id} is already ${p.status}; nothing to do`, {
      data: { id: p.id, status: p.status },
    });
  }
  return { ws, path, doc, p };
}

/**
 * Promote a dream proposal: apply its action (a bullet added to long-term memory, an entry marked
 * duplicate, superseded or archived, a playbook entry deactivated), mark it `promoted` in DREAMS.md,
 * and record both as one commit (when in git). Returns the diff of the change; nothing is promoted
 * without one.
 * @throws MemoryError `entry.not-found` (unknown id), `usage` (already decided), `entry.invalid`
 *   (no action, evidence no longer matches the files, or the action does not apply any more).
 */
export async function promoteProposal(ctx: MemoryContext, input: ProposalInput): Promise<ProposalDecision> {
  const { git: where, id, ...options } = input;
  const memory = ctx;
  const { ws, path, doc, p } = await findProposal(memory, id);
  if (!p.action)
    throw new MemoryError('entry.invalid', `proposal ${p.id} has no action line; edit it or reject it`, {
      hint: 'a promotable proposal has "- action: …" (see gitmem dream output)',
    });
  const stale = staleEvidence(p, ws);
  if (stale.length) {
    throw new MemoryError(
      'entry.invalid',
      `proposal ${p.id} cites evidence that no longer exists: ${stale.map((e) => `${e.path}:${e.line}`).join(', ')}`,
      {
        data: { stale },
        hint: 'reject it and run gitmem dream again',
      },
    );
  }
  const target = ws.tryGet(p.action.path as never);
  const applied = applyAction(p.action, target, withFrontMatterKey);
  if ('problem' in applied)
    throw new MemoryError('entry.invalid', `cannot promote ${p.id}: ${applied.problem}`, {
      hint: `gitmem reject ${p.id}`,
    });
  const day = (options.now ?? new Date()).toISOString().slice(0, 10);
  const dreamsNext = withProposalStatus(doc.text, p.id, 'promoted', day)!;
  const diff = unifiedDiff(p.action.path, target?.text, applied.text) + unifiedDiff(path, doc.text, dreamsNext);
  if (!diff.trim()) throw new MemoryError('entry.invalid', `promoting ${p.id} would change nothing`);
  const git = committer(memory, where, options);
  // What is printed is what is committed: refuse when either file holds edits nobody reviewed.
  if (git.enabled) await assertNoUncommittedEdits(memory, where, [p.action.path, path], `promoting ${p.id}`);
  await writeMemoryFile(ctx, p.action.path, diskText(target, applied.text));
  await writeMemoryFile(ctx, path, diskText(doc, dreamsNext));
  const commit = await git.commit([p.action.path, path], `memory: promote dream ${p.id}`, `${p.kind}: ${p.title}`, {
    'Memory-Origin': 'dream',
  });
  return { id: p.id, kind: p.kind, status: 'promoted', action: p.action, files: [p.action.path, path], diff, commit };
}

/**
 * Reject a dream proposal: mark it `rejected` in DREAMS.md (kept, so later passes do not propose
 * it again) and commit that (when in git).
 * @throws MemoryError `entry.not-found`, `usage` (already decided).
 */
export async function rejectProposal(
  ctx: MemoryContext,
  input: ProposalInput & { readonly reason?: string },
): Promise<ProposalDecision> {
  const { git: where, id, ...options } = input;
  const memory = ctx;
  const { path, doc, p } = await findProposal(memory, id);
  const day = (options.now ?? new Date()).toISOString().slice(0, 10);
  const next = withProposalStatus(
    doc.text,
    p.id,
    'rejected',
    options.reason ? `${day}: ${oneLine(options.reason)}` : day,
  )!;
  const git = committer(memory, where, options);
  if (git.enabled) await assertNoUncommittedEdits(memory, where, [path], `rejecting ${p.id}`);
  await writeMemoryFile(ctx, path, diskText(doc, next));
  const commit = await git.commit([path], `memory: reject dream ${p.id}`, options.reason ?? `${p.kind}: ${p.title}`, {
    'Memory-Origin': 'dream',
  });
  return {
    id: p.id,
    kind: p.kind,
    status: 'rejected',
    action: p.action ?? null,
    files: [path],
    diff: unifiedDiff(path, doc.text, next),
    commit,
  };
}
