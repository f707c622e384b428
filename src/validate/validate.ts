// Workspace validation: each document's parse diagnostics plus every rule's findings, with
// per-code severity overrides, sorted for stable output. Pure over the document model.
// Imports only core and ./rules (+ ./schema through them); never parse/.
import { compareDiagnostics, type Diagnostic, type Severity } from '../core/diagnostics.js';
import type { MemoryDoc } from '../core/document.js';
import { resolveRelative, slugOf, type RelPath } from '../core/paths.js';
import { isTagCatalogueCandidate } from '../core/tags.js';
import type { MemoryWorkspace } from '../core/workspace.js';
import { guardDiagnostic } from './message-guard.js';
import { RULES, type Rule, type RuleContext } from './rules/index.js';

/** Severity override per diagnostic code, or per code family (`memory.schema`, `memory.link`). */
export type SeverityOverrides = Readonly<Record<string, Severity | 'off'>>;

export interface ValidateOptions {
  /** Only report diagnostics of these documents (rules still see the whole workspace). */
  readonly paths?: readonly RelPath[];
  /**
   * Override severities, keyed by diagnostic code or by a prefix of it ending at a `.`
   * (`memory.schema` covers every `memory.schema.*` code); the longest key wins. `off` drops them.
   */
  readonly severities?: SeverityOverrides;
  /** Does a non-memory file exist? Lets relative links to code files be checked (see {@link RuleContext}). */
  readonly exists?: (path: RelPath) => boolean;
  /** Today (YYYY-MM-DD) for the expiry rule; without it expiry is not checked. */
  readonly today?: string;
  /** Always-loaded budget (config `load`). */
  readonly load?: { readonly maxLines: number; readonly maxBytes: number };
  /** Rules to run; default {@link RULES}. */
  readonly rules?: readonly Rule[];
}

/** @returns the override for `code`: its own entry, else the longest matching family, else undefined. */
function overrideFor(code: string, severities: SeverityOverrides): Severity | 'off' | undefined {
  let key = code;
  for (;;) {
    const hit = severities[key];
    if (hit !== undefined) return hit;
    const dot = key.lastIndexOf('.');
    if (dot < 0) return undefined;
    key = key.slice(0, dot);
  }
}

function applySeverities(diags: readonly Diagnostic[], severities: SeverityOverrides | undefined): Diagnostic[] {
  if (!severities) return [...diags];
  const out: Diagnostic[] = [];
  for (const d of diags) {
    const o = overrideFor(d.code, severities);
    if (o === 'off') continue;
    out.push(o === undefined || o === d.severity ? d : { ...d, severity: o });
  }
  return out;
}

/**
 * Diagnostics of one document: its parse diagnostics plus every rule's findings.
 * Rules that throw are a bug in gitmem, not in the user's file, so the error propagates.
 */
function validateDoc(doc: MemoryDoc, ctx: RuleContext, rules: readonly Rule[]): Diagnostic[] {
  const out: Diagnostic[] = doc.diagnostics.map(guardDiagnostic);
  for (const rule of rules) out.push(...rule.check(doc, ctx).map(guardDiagnostic));
  return out;
}

/**
 * Validate the workspace (or only `options.paths`, which may name paths that are not in it: they
 * contribute nothing).
 * @returns every diagnostic, severity overrides applied, sorted with {@link compareDiagnostics}.
 */
export function validateWorkspace(workspace: MemoryWorkspace, options: ValidateOptions = {}): Diagnostic[] {
  const ctx: RuleContext = {
    workspace,
    ...(options.exists ? { exists: options.exists } : {}),
    ...(options.today ? { today: options.today } : {}),
    ...(options.load ? { load: options.load } : {}),
  };
  const rules = options.rules ?? RULES;
  const docs: MemoryDoc[] = [];
  if (options.paths) {
    for (const p of new Set(options.paths)) {
      const doc = workspace.tryGet(p);
      if (doc) docs.push(doc);
    }
  } else {
    docs.push(...workspace.docs());
  }
  const out: Diagnostic[] = [];
  for (const doc of docs) out.push(...validateDoc(doc, ctx, rules));
  return applySeverities(out, options.severities).sort(compareDiagnostics);
}

/** @returns true when any diagnostic is an error (the CLI then exits 1). */
export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === 'error');
}

/**
 * Documents whose diagnostics may differ after the documents at `touched` (added, changed or
 * removed) turned `before` into `after`. The one owner of this question: `gitmem validate` after
 * an update and the editor model after every edit, save or disk change ask it.
 * - A touched document that exists on both sides with the same kind, id and `supersedes:` changed
 *   only its own findings: just it.
 * - Otherwise: the touched documents themselves, documents that share an id with one of them
 *   (duplicate-id appears or disappears), documents with a link that may name one of them (it may
 *   now resolve or break), and documents from which a touched id is reached through `supersedes:`
 *   (an unknown-id or cycle finding may appear or go).
 * - A touched tag catalogue (`tags.md`) adds every tagged entry and playbook entry (unknown-tag hints).
 * @returns paths present in `after`, sorted; re-validate these with `validateWorkspace(after, { paths })`.
 */
export function affectedPaths(
  before: MemoryWorkspace,
  after: MemoryWorkspace,
  touchedPaths: Iterable<RelPath>,
): RelPath[] {
  const touched = new Set<RelPath>(touchedPaths);
  if (touched.size === 0) return [];
  const out = new Set<RelPath>();
  // The tag catalogue decides unknown-tag hints on every tagged entry.
  const catalogue = [...touched].some((p) =>
    [before.tryGet(p), after.tryGet(p)].some((d) => d && isTagCatalogueCandidate(d)),
  );
  if (catalogue)
    for (const d of after.docs())
      if (d.meta.tags.length && (d.kind === 'entry' || d.kind === 'playbook')) out.add(d.path);
  if (!catalogue && [...touched].every((p) => sameIdentity(before.tryGet(p), after.tryGet(p)))) {
    for (const p of touched) out.add(p);
    return [...out].sort();
  }
  const ids = new Set<string>();
  // Names a wiki link could use for a touched document: its ids (old and new) and its slug.
  const names = new Set<string>();
  for (const p of touched) {
    names.add(slugOf(p).toLowerCase());
    names.add(p.replace(/\.md$/i, '').toLowerCase());
    for (const ws of [before, after]) {
      const id = ws.tryGet(p)?.meta.id;
      if (id !== undefined) {
        ids.add(id);
        names.add(id.trim().toLowerCase());
      }
    }
    if (after.tryGet(p)) out.add(p);
  }
  for (const id of ids) for (const d of after.byId(id)) out.add(d.path);
  for (const d of supersedingClosure(after, ids)) out.add(d.path);
  for (const d of after.docs()) {
    if (out.has(d.path)) continue;
    for (const link of d.links) {
      if (
        link.kind === 'wiki'
          ? names.has(link.target.trim().replace(/\.md$/i, '').toLowerCase())
          : linksTo(d.path, link.target, touched)
      ) {
        out.add(d.path);
        break;
      }
    }
  }
  return [...out].sort();
}

/** Both sides hold the document with the same kind, id and `supersedes:` list. */
function sameIdentity(a: MemoryDoc | undefined, b: MemoryDoc | undefined): boolean {
  if (!a || !b || a.kind !== b.kind || a.meta.id !== b.meta.id) return false;
  return (a.meta.supersedes ?? []).join('\n') === (b.meta.supersedes ?? []).join('\n');
}

/** Documents of `ws` that reach one of `ids` through a chain of `supersedes:` ids. */
function supersedingClosure(ws: MemoryWorkspace, ids: ReadonlySet<string>): MemoryDoc[] {
  const by = new Map<string, MemoryDoc[]>();
  for (const d of ws.docs())
    for (const x of d.meta.supersedes ?? []) {
      const list = by.get(x);
      if (list) list.push(d);
      else by.set(x, [d]);
    }
  if (by.size === 0) return [];
  const seen = new Set<string>(ids);
  const queue = [...ids];
  const out: MemoryDoc[] = [];
  while (queue.length) {
    for (const d of by.get(queue.pop()!) ?? []) {
      out.push(d);
      const id = d.meta.id;
      if (id !== undefined && !seen.has(id)) {
        seen.add(id);
        queue.push(id);
      }
    }
  }
  return out;
}

function linksTo(from: RelPath, target: string, paths: ReadonlySet<RelPath>): boolean {
  const p = resolveRelative(from, target);
  return p !== undefined && (paths.has(p) || paths.has(`${p}.md` as RelPath));
}
