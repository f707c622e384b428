// The stale-code findings of one memory file as diagnostics: each stale state of a code check
// (verify.ts checkDocument) as `memory.code.stale` on the line where the file cites it now — the
// backticked name (`name-missing`), the front-matter `files:` item, or the path in the text — with a
// message naming the status. The editor (editor/code-checks.ts) and `gitmem validate --code` show them.
// deps: core, parse (citations), service/trust.
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import type { MemoryDoc } from '../../core/document.js';
import { LineIndex, range, type Range } from '../../core/position.js';
import { normaliseCitedPath } from '../../parse/citations.js';
import type { CodeStatus } from './code-check.js';
import type { StaleMemory } from './verify.js';

/** The cited path as the memory may write it: the repository path, then shorter tails (a workspace in a sub-folder). */
function writtenForms(repoPath: string): string[] {
  const parts = repoPath.split('/');
  const out: string[] = [];
  for (let i = 0; i < parts.length - 1; i++) out.push(parts.slice(i).join('/'));
  return out.length ? out : [repoPath];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The diagnostics of `stale` (checked from `doc`'s text, or an earlier text of it) placed on `doc`
 * as it is now; a state whose citation is no longer in `doc` gives none.
 * @param verified the `verified:` date the check counted from (worded in the message).
 */
export function staleDiagnostics(
  doc: MemoryDoc,
  stale: readonly StaleMemory[],
  verified: string | undefined,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const li = new LineIndex(doc.text);
  for (const mem of stale)
    for (const c of mem.code) {
      const at = locate(doc, li, mem, c);
      if (!at) continue;
      out.push({
        path: doc.path,
        range: at,
        severity: c.status === 'code-changed' ? 'information' : 'warning',
        code: DiagnosticCode.codeStale,
        message: staleMessage(c, verified),
        data: { ...c, ...(mem.id ? { id: mem.id } : {}) },
      });
    }
  return out;
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
