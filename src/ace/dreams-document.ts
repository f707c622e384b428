// DREAMS.md as a document: proposals rendered and parsed back, their status changed in place, and
// the file edits that promoting one makes (with a check that its evidence still holds). Nothing
// here writes: the service applies the edits and shows the diff. Pure and deterministic.
import type { MemoryDoc } from '../core/document.js';
import type { MemoryWorkspace } from '../core/workspace.js';
import { shortHash } from './text.js';
import { type DreamKind, type DreamStatus, type Evidence, type DreamAction, type DreamProposal } from './dreams.js';

// ---------------------------------------------------------------------------------------------
// DREAMS.md

const fmtEvidence = (ev: readonly Evidence[]) => ev.map((e) => `${e.path}:${e.line}`).join(', ');

function fmtAction(a: DreamAction): string {
  if (a.type === 'append') return `append to ${a.path} under "${a.section}"`;
  if (a.type === 'duplicate') return `mark ${a.path} as duplicate of ${a.of}`;
  return `set status of ${a.path} to ${a.status}`;
}

function parseAction(text: string, body: string): DreamAction | undefined {
  let m = /^append to (\S+) under "([^"]*)"$/.exec(text);
  if (m) {
    const t = /^- text: (.*)$/m.exec(body)?.[1]?.trim();
    return t ? { type: 'append', path: m[1]!, section: m[2]!, text: t } : undefined;
  }
  m = /^mark (\S+) as duplicate of (\S+)$/.exec(text);
  if (m) return { type: 'duplicate', path: m[1]!, of: m[2]! };
  m = /^set status of (\S+) to (superseded|archived)$/.exec(text);
  if (m) return { type: 'status', path: m[1]!, status: m[2] as 'superseded' | 'archived' };
  return undefined;
}

/** The markdown section of one proposal. */
function renderProposal(p: DreamProposal, eol = '\n'): string {
  const lines = [
    `## Proposal ${p.id}: ${p.title}`,
    '',
    `- id: ${p.id}`,
    `- kind: ${p.kind}`,
    `- status: ${p.status}`,
    `- evidence: ${fmtEvidence(p.evidence)}`,
    ...(p.action ? [`- action: ${fmtAction(p.action)}`] : []),
    ...(p.action?.type === 'append' ? [`- text: ${p.action.text}`] : []),
    `- why: ${p.why}`,
  ];
  return lines.join(eol) + eol;
}

/** A proposal parsed from DREAMS.md, with the 0-based line range of its section. */
export interface ParsedProposal extends DreamProposal {
  readonly startLine: number;
  readonly endLine: number;
}

/**
 * Proposals in a DREAMS.md text: every `## Proposal …` section, with `- key: value` bullets for id,
 * kind, status, evidence, action, text and why. Hand-written proposals without an id get a stable
 * one from their heading.
 */
export function parseDreams(text: string): ParsedProposal[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: ParsedProposal[] = [];
  let i = 0;
  while (i < lines.length) {
    const h = /^##\s+Proposal\b\s*(d-[0-9a-f]{8})?\s*:?\s*(.*)$/.exec(lines[i]!);
    if (!h) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < lines.length && !/^#{1,2}\s/.test(lines[j]!)) j++;
    const body = lines.slice(i + 1, j).join('\n');
    const field = (k: string) => new RegExp(`^- ${k}:\\s*(.*)$`, 'mi').exec(body)?.[1]?.trim();
    const title = h[2]!.trim();
    const id = field('id') ?? h[1] ?? `d-${shortHash(`hand\0${title}`)}`;
    const evidence: Evidence[] = [];
    for (const part of (field('evidence') ?? '').split(/,\s*/)) {
      const m = /^(\S+?):(\d+)/.exec(part.trim());
      if (m) evidence.push({ path: m[1]!, line: Number(m[2]) });
    }
    const status = (/^(proposed|promoted|rejected)/.exec(field('status') ?? 'proposed')?.[1] ??
      'proposed') as DreamStatus;
    const kindField = field('kind');
    const kind: DreamKind =
      kindField === 'promotion' || kindField === 'merge' || kindField === 'retirement'
        ? kindField
        : /^merge/i.test(title)
          ? 'merge'
          : /^(retire|archive)/i.test(title)
            ? 'retirement'
            : 'promotion';
    const actionText = field('action');
    const action = actionText ? parseAction(actionText, body) : undefined;
    const why =
      field('why') ??
      body
        .split('\n')
        .filter((l) => /^- /.test(l) && !/^- (id|kind|status|evidence|action|text):/i.test(l))
        .map((l) => l.slice(2))
        .join(' ');
    // Trailing blank lines are not part of the section.
    let end = j - 1;
    while (end > i && lines[end]!.trim() === '') end--;
    out.push({ id, kind, status, title, evidence, why, ...(action ? { action } : {}), startLine: i, endLine: end });
    i = j;
  }
  return out;
}

/** DREAMS.md text with `proposals` appended (a new file gets the standard header). */
export function withProposals(
  text: string | undefined,
  proposals: readonly DreamProposal[],
  eol: '\n' | '\r\n' = '\n',
): string {
  let base =
    text ?? `# Dreams${eol}${eol}Consolidation proposals awaiting review. Nothing here is memory until promoted.${eol}`;
  if (!proposals.length) return base;
  if (!base.endsWith('\n')) base += eol;
  return `${base}${proposals.map((p) => `${eol}${renderProposal(p, eol)}`).join('')}`;
}

/** DREAMS.md text with the proposal's `- status:` line set (added after the heading block when missing). */
export function withProposalStatus(text: string, id: string, status: DreamStatus, note?: string): string | undefined {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const p = parseDreams(text).find((x) => x.id === id);
  if (!p) return undefined;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const value = `- status: ${status}${note ? ` (${note})` : ''}`;
  let done = false;
  for (let k = p.startLine + 1; k <= p.endLine; k++) {
    if (/^- status:/i.test(lines[k]!)) {
      lines[k] = value;
      done = true;
      break;
    }
  }
  if (!done) lines.splice(p.endLine + 1, 0, value);
  return lines.join(eol);
}

/**
 * Sets one front-matter key of a document: its new text, or undefined when it has no YAML
 * front-matter (the one front-matter key editor, parse/front-matter-edit.ts withFrontMatterKey,
 * passed in by the service: the planners import only core).
 */
export type FrontMatterSetter = (doc: MemoryDoc, key: string, value: string | boolean) => string | undefined;

/**
 * The new text of the file an action changes, or a reason it cannot be applied.
 * `doc` is the current document at `action.path` (undefined when the file does not exist).
 */
export function applyAction(
  action: DreamAction,
  doc: MemoryDoc | undefined,
  withScalar: FrontMatterSetter,
): { text: string } | { problem: string } {
  if (action.type === 'append') {
    const bullet = `- ${action.text.replace(/\s+/g, ' ').trim()}`;
    if (!doc) return { text: `# Memory\n\n## ${action.section}\n\n${bullet}\n` };
    const eol = doc.eol;
    const lines = doc.text.replace(/\r\n?/g, '\n').split('\n');
    if (lines.some((l) => l.trim() === bullet)) return { problem: `${action.path} already holds this fact` };
    const h = doc.headings.find((x) => x.depth === 2 && x.text.trim().toLowerCase() === action.section.toLowerCase());
    if (!h) {
      while (lines.length && lines[lines.length - 1] === '') lines.pop();
      lines.push('', `## ${action.section}`, '', bullet, '');
      return { text: lines.join(eol) };
    }
    // After the section's last non-blank line (before the next heading of depth ≤ 2).
    const next = doc.headings.find((x) => x.range.start.line > h.range.start.line && x.depth <= 2);
    let at = next ? next.range.start.line : lines.length;
    while (at > h.range.start.line + 1 && lines[at - 1]!.trim() === '') at--;
    const insert = at === h.range.start.line + 1 ? ['', bullet] : [bullet];
    lines.splice(at, 0, ...insert);
    return { text: lines.join(eol) };
  }
  if (!doc) return { problem: `${action.path} does not exist any more` };
  if (doc.kind === 'playbook') {
    if (doc.meta.active === false) return { problem: `${action.path} is already inactive` };
    const t = withScalar(doc, 'active', false);
    return t === undefined ? { problem: `${action.path} has no YAML front-matter` } : { text: t };
  }
  if (action.type === 'duplicate') {
    if (doc.meta.duplicateOf) return { problem: `${action.path} is already a duplicate of ${doc.meta.duplicateOf}` };
    const t = withScalar(doc, 'duplicate_of', action.of);
    return t === undefined ? { problem: `${action.path} has no YAML front-matter` } : { text: t };
  }
  if (doc.meta.status === action.status) return { problem: `${action.path} is already ${action.status}` };
  const t = withScalar(doc, 'status', action.status);
  return t === undefined ? { problem: `${action.path} has no YAML front-matter` } : { text: t };
}

/** Evidence that no longer matches the files (line beyond the end of the file, or file gone). */
export function staleEvidence(p: DreamProposal, ws: MemoryWorkspace): Evidence[] {
  return p.evidence.filter((e) => {
    const d = ws.tryGet(e.path as never);
    if (!d) return true;
    const lines = d.text.split('\n').length;
    return e.line > lines;
  });
}
