// The editor's "checked against the code" diagnostics: open memories whose cited code went stale
// (service/trust/code-check.ts: `orphaned`, `code-changed`, `name-missing`), one diagnostic
// `memory.code.stale` on the line of each citation — the front-matter `files:` item, the path in the
// text, or the backticked name (service/trust/code-diagnostics.ts). The check walks git history, so it never runs on a request: the
// language server calls {@link CodeChecks.refresh} in the background (server/code-checks.ts) and
// the diagnostics read the last answers, placed on the document as it is now.
// deps: core, service (trust: verify's checkDocument, code-check, code-diagnostics).
import { DiagnosticCode, type Diagnostic } from '../core/diagnostics.js';
import type { MemoryDoc } from '../core/document.js';
import type { RelPath } from '../core/paths.js';
import type { MemoryContext } from '../service/shared/memory-context.js';
import { verifiedOf } from '../service/trust/code-check.js';
import { staleDiagnostics } from '../service/trust/code-diagnostics.js';
import { checkDocument, openCodeChecker, type StaleMemory } from '../service/trust/verify.js';

/** Code of the stale-code diagnostic. */
export const CODE_STALE = DiagnosticCode.codeStale;

/** What the last check of one document found. */
interface Checked {
  /** Front-matter `verified:` of the text checked (a different one now: the answer is out of date). */
  readonly verified: string | undefined;
  readonly stale: readonly StaleMemory[];
}

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
    return staleDiagnostics(doc, got.stale, got.verified);
  }
}
