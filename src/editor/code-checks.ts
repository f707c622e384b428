// The editor's "checked against the code" diagnostics: open memories whose cited code went stale
// (service/trust/code-check.ts: `orphaned`, `code-changed`, `name-missing`), one diagnostic
// `memory.code.stale` on the line of each citation — the front-matter `files:` item, the path in the
// text, or the backticked name. The check walks git history, so it never runs on a request: the
// language server calls {@link CodeChecks.refresh} in the background (server/code-checks.ts) and
// the diagnostics read the last answers, placed on the document as it is now.
// deps: core, service (trust: verify's checkDocument, code-check).
import { DiagnosticCode, type Diagnostic } from '../core/diagnostics.js';
import type { MemoryDoc } from '../core/document.js';
import type { RelPath } from '../core/paths.js';
import { LineIndex, range, type Range } from '../core/position.js';
import { normaliseCitedPath } from '../parse/citations.js';
import type { MemoryContext } from '../service/shared/memory-context.js';
import { verifiedOf, type CodeStatus } from '../service/trust/code-check.js';
import { checkDocument, openCodeChecker, type StaleMemory } from '../service/trust/verify.js';

/** Code of the stale-code diagnostic. */
export const CODE_STALE = DiagnosticCode.codeStale;

/** What the last check of one document found. */
interface Checked {
  /** Front-matter `verified:` of the text checked (a different one now: the answer is out of date). */
  readonly verified: string | undefined;
  readonly stale: readonly StaleMemory[];
}

/** The cited path as the memory may write it: the repository path, then shorter tails (a workspace in a sub-folder). */
function writtenForms(repoPath: string): string[] {
  const parts = repoPath.split('/');
  const out: string[] = [];
  for (let i = 0; i < parts.length - 1; i++) out.push(parts.slice(i).join('/'));
  return out.length ? out : [repoPath];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The last code-check answers of the documents the editor asked about, and the diagnostics they give.
 * One per editor session (EditorModel.codeChecks).
 */
export class CodeChecks {
  readonly #byPath = new Map<RelPath, Checked>();

  /**
   * Check `docs` against the code they cite (git reads; cached per HEAD in derived state), awaiting
   * `between()` before each document (the server lets queued requests run).
   * @returns the paths whose answer changed. Outside git: nothing is checked, [] is returned.
   * @throws what the git reads throw (a corrupt repository); the caller logs it.
   */
  async refresh(
    ctx: MemoryContext,
    docs: readonly MemoryDoc[],
    between: () => Promise<void> = async () => undefined,
  ): Promise<RelPath[]> {
    if (!ctx.git || docs.length === 0) return [];
    const checker = openCodeChecker(ctx);
    const changed: RelPath[] = [];
    try {
      for (const doc of docs) {
        await between();
        const { stale } = await checkDocument(checker, doc);
        const next: Checked = { verified: verifiedOf(doc.text), stale };
        const before = this.#byPath.get(doc.path);
        if (!before || before.verified !== next.verified || JSON.stringify(before.stale) !== JSON.stringify(stale))
          changed.push(doc.path);
        if (stale.length === 0 && !before) continue; // nothing to remember about a fresh memory
        this.#byPath.set(doc.path, next);
      }
    } finally {
      await checker.flush();
    }
    return changed;
  }

  /** Drop the answer for `path` (its document closed). */
  forget(path: RelPath): void {
    this.#byPath.delete(path);
  }

  /**
   * The stale-code diagnostics of `doc` as it is now: each stale state of the last check, on the
   * line where `doc` still cites it (none when the citation is gone, or when `verified:` changed
   * since the check: the next check answers).
   */
  diagnosticsOf(doc: MemoryDoc): Diagnostic[] {
    const got = this.#byPath.get(doc.path);
    if (!got || got.verified !== verifiedOf(doc.text)) return [];
    const out: Diagnostic[] = [];
    const li = new LineIndex(doc.text);
    for (const mem of got.stale)
      for (const c of mem.code) {
        const at = locate(doc, li, mem, c);
        if (!at) continue;
        out.push({
          path: doc.path,
          range: at,
          severity: c.status === 'code-changed' ? 'information' : 'warning',
          code: CODE_STALE,
          message: staleMessage(c, got.verified),
          data: { ...c, ...(mem.id ? { id: mem.id } : {}) },
        });
      }
    return out;
  }
}

/** The message of one stale state, e.g. "src/x.ts changed in 3 commits (41 lines) since this memory was written (1a2b3c4)". */
export function staleMessage(c: CodeStatus, verified?: string): string {
  const when = verified ? `since it was verified on ${verified}` : 'since this memory was written';
  const at = c.since ? ` (${c.since.slice(0, 7)})` : '';
  switch (c.status) {
    case 'orphaned':
      return `${c.path} was deleted ${when}${c.movedTo ? ` (renamed to ${c.movedTo})` : at}`;
    case 'name-missing':
      return `\`${c.name}\` is no longer defined in ${c.path}`;
    case 'code-changed': {
      const lines = `${c.changedLines} line${c.changedLines === 1 ? '' : 's'}`;
      return c.commits
        ? `${c.path} changed in ${c.commits} commit${c.commits === 1 ? '' : 's'} (${lines}) ${when}${at}`
        : `${c.path} has uncommitted changes (${lines}) ${when}${at}`;
    }
    default:
      return `${c.path} is unchanged`;
  }
}

/**
 * Where `doc` cites `c` now: the backticked name (`name-missing`), the `files:` item naming the path,
 * or the path in the memory's lines (then anywhere after the front-matter, when lines moved).
 */
function locate(doc: MemoryDoc, li: LineIndex, mem: StaleMemory, c: CodeStatus): Range | undefined {
  const first = doc.frontMatter ? doc.frontMatter.range.end.line + 1 : 0;
  const within = (re: RegExp, group: number): Range | undefined => {
    const spans: [number, number][] = [
      [Math.max(first, mem.startLine - 1), Math.min(li.lineCount - 1, mem.endLine - 1)],
      [first, li.lineCount - 1],
    ];
    for (const [from, to] of spans)
      for (let l = from; l <= to; l++) {
        const m = re.exec(li.lineText(l));
        if (!m) continue;
        const start = m.index + m[0].indexOf(m[group]!);
        return range(l, start, l, start + m[group]!.length);
      }
    return undefined;
  };
  if (c.status === 'name-missing' && c.name) {
    const n = escapeRe(c.name);
    const hit = within(new RegExp(`\`[^\`\\n]*?(?<![\\w$])(${n})(?![\\w$])[^\`\\n]*\``), 1);
    if (hit) return hit;
  }
  const forms = writtenForms(c.path);
  const files = doc.meta.files;
  for (let i = 0; i < files.length; i++) {
    const p = normaliseCitedPath(files[i]!.path);
    if (!p || !forms.includes(p)) continue;
    const node = doc.frontMatter?.nodes[`/files/${i}/path`] ?? doc.frontMatter?.nodes[`/files/${i}`];
    if (node) return node.value;
  }
  for (const f of forms) {
    const hit = within(new RegExp(`(?<![\\w./\\\\:@~-])(?:\\./)?(${escapeRe(f)})(?![\\w/])`), 1);
    if (hit) return hit;
  }
  return undefined;
}
