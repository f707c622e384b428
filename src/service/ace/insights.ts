// The scheduled dream pass and, with the Fusion layout, its two review files under the Fusion
// memory folder: `memory-insights.md` (the proposals awaiting review, rewritten each run) and
// `memory-audit.md` (append-only: one dated section per run listing what was proposed, promoted,
// rejected and pruned since the previous run). Every file is written atomically through the
// workspace's guarded writes and left uncommitted, so a run is reviewed with `gitmem diff`; nothing
// is promoted here (promotion stays `gitmem promote <id>`). deps: core, ace, service.
import { parseDreams } from '../../ace/dreams-document.js';
import { type DreamProposal } from '../../ace/dreams.js';
import { decodeText } from '../../core/text.js';
import { toRelPath } from '../../core/paths.js';
import type { MemoryFs } from '../../core/ports.js';
import { dream } from './dream-proposals.js';
import type { GitLocation } from '../git-ops/checkpoint.js';
import type { MemoryContext } from '../shared/memory-context.js';
import { writeMemoryFile } from '../shared/memory-files.js';

const INSIGHTS_FILE = 'memory-insights.md';
const AUDIT_FILE = 'memory-audit.md';

export interface ScheduledDreamResult {
  /** DREAMS.md path. */
  readonly dreams: string;
  /** Ids of the proposals this run added. */
  readonly proposed: readonly string[];
  /** Proposals decided since the previous audited run (Fusion layout only; else empty). */
  readonly promoted: readonly string[];
  readonly rejected: readonly string[];
  /** Promoted retirements: memories archived, superseded or marked duplicate. */
  readonly pruned: readonly string[];
  /** Proposals awaiting review after the run. */
  readonly awaiting: number;
  /** Files this run wrote (workspace-relative). */
  readonly files: readonly string[];
}

async function readText(fs: MemoryFs, path: string): Promise<string | undefined> {
  const bytes = await fs.read(toRelPath(path));
  return bytes ? decodeText(bytes).text : undefined;
}

/** Ids already listed on an audit section's `- promoted:`, `- rejected:` or `- pruned:` line. */
export function auditedDecisions(audit: string | undefined): Set<string> {
  const seen = new Set<string>();
  for (const m of (audit ?? '').matchAll(/^- (?:promoted|rejected|pruned): .*$/gm))
    for (const id of m[0].match(/d-[0-9a-f]{8}/g) ?? []) seen.add(id);
  return seen;
}

const list = (ids: readonly string[]) => (ids.length ? `${ids.length} (${ids.join(', ')})` : '0');

/** One dated section of memory-audit.md. */
export function auditSection(
  at: Date,
  r: Pick<ScheduledDreamResult, 'proposed' | 'promoted' | 'rejected' | 'pruned' | 'awaiting'>,
): string {
  return [
    `## ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `- proposed: ${list(r.proposed)}`,
    `- promoted: ${list(r.promoted)}`,
    `- rejected: ${list(r.rejected)}`,
    `- pruned: ${list(r.pruned)}`,
    `- awaiting review: ${r.awaiting}`,
    '',
  ].join('\n');
}

/** memory-insights.md: the proposals awaiting review, readable without DREAMS.md. */
export function insightsText(at: Date, dreamsPath: string, awaiting: readonly DreamProposal[]): string {
  const head = [
    '# Memory insights',
    '',
    `Proposals from the dream pass of ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC awaiting review (from ${dreamsPath}).`,
    'Nothing here is memory until promoted: `gitmem promote <id>` or `gitmem reject <id>`.',
    '',
  ];
  if (!awaiting.length) return [...head, 'No proposals awaiting review.', ''].join('\n');
  const body = awaiting.flatMap((p) => [
    `## ${p.id}: ${p.title}`,
    '',
    `- kind: ${p.kind}`,
    `- why: ${p.why}`,
    `- evidence: ${p.evidence.map((e) => `${e.path}:${e.line}`).join(', ') || '(none)'}`,
    '',
  ]);
  return [...head, ...body].join('\n');
}

/** `scheduledDream`'s input: the repository, the run's time, the disk, and which code paths exist. */
export interface ScheduledDreamInput {
  readonly git: GitLocation;
  /**
   * The files on disk, read back after the pass wrote them (not an editor's open-buffer overlay) and
   * locked for the audit file.
   */
  readonly fs: MemoryFs;
  readonly now: Date;
  readonly exists?: (path: string) => boolean;
}

/**
 * Run one dream pass for a schedule (DREAMS.md gets the new proposals, uncommitted), and with the
 * Fusion layout rewrite memory-insights.md and append a section to memory-audit.md.
 */
export async function scheduledDream(ctx: MemoryContext, input: ScheduledDreamInput): Promise<ScheduledDreamResult> {
  const { git: where, ...deps } = input;
  const res = await dream(ctx, {
    git: where,
    commit: false,
    now: deps.now,
    ...(deps.exists ? { exists: deps.exists } : {}),
  });
  const all = parseDreams((await readText(deps.fs, res.path)) ?? '');
  const awaiting = all.filter((p) => p.status === 'proposed');
  const proposed = res.proposals.map((p) => p.id);
  const files = proposed.length ? [res.path] : [];
  const layout = ctx.loaded.layout;
  if (layout.name !== 'fusion')
    return { dreams: res.path, proposed, promoted: [], rejected: [], pruned: [], awaiting: awaiting.length, files };

  const dir = layout.memoryDir;
  const insightsPath = `${dir}/${INSIGHTS_FILE}`;
  const auditPath = `${dir}/${AUDIT_FILE}`;
  const write = async (): Promise<ScheduledDreamResult> => {
    const audit = await readText(deps.fs, auditPath);
    const seen = auditedDecisions(audit);
    const fresh = all.filter((p) => p.status !== 'proposed' && !seen.has(p.id));
    const result: ScheduledDreamResult = {
      dreams: res.path,
      proposed,
      promoted: fresh.filter((p) => p.status === 'promoted' && p.kind !== 'retirement').map((p) => p.id),
      rejected: fresh.filter((p) => p.status === 'rejected').map((p) => p.id),
      pruned: fresh.filter((p) => p.status === 'promoted' && p.kind === 'retirement').map((p) => p.id),
      awaiting: awaiting.length,
      files: [...files, insightsPath, auditPath],
    };
    await writeMemoryFile(ctx, insightsPath, insightsText(deps.now, res.path, awaiting));
    const base =
      audit && audit.trim()
        ? audit.replace(/\s*$/, '\n\n')
        : '# Memory audit\n\nOne section per scheduled dream pass (append-only).\n\n';
    await writeMemoryFile(ctx, auditPath, base + auditSection(deps.now, result));
    return result;
  };
  // Under the per-file lock: two hosts running the schedule never interleave their sections.
  const { fs } = deps;
  return fs.withFileLock(toRelPath(auditPath), write, { waitMs: 10_000 });
}
