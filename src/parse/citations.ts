// Code citations of a memory: the repository paths it names (front-matter `files:`, and paths in its
// text such as `src/x.ts` or `src/x.ts:120`) and the backticked names it mentions (`chargeCustomer`),
// plus the test whether a code file defines a name. Pure: text in, citations out; what a citation's
// state is (service/trust/code-check.ts) is judged against git elsewhere. deps: none.

/** One cited path, repository-relative POSIX as written (a leading `./` dropped). */
export interface CodeCitation {
  readonly path: string;
  /** 1-based line the text names (`src/x.ts:120`, `src/x.ts#L120`); absent when none. */
  readonly line?: number;
  /** Where the memory cites it: front-matter `files:` (declared) or its text (found). */
  readonly from: 'files' | 'text';
}

/** What one memory (an entry, a chunk of a note) cites. */
export interface CitationSet {
  /** Distinct paths, `files:` first, then text order. */
  readonly paths: readonly CodeCitation[];
  /** Distinct backticked identifiers (3+ characters; the last part of `a.b.c`), in text order. */
  readonly names: readonly string[];
}

/**
 * A repository path in prose: at least one folder, a file name with an extension of letters and
 * digits, optionally `:line`, `:line-line` or `#Lline`. Not part of a URL or an absolute path (no
 * `/`, `:` or word character just before it).
 */
const TEXT_PATH =
  /(?<![\w./\\:@~-])((?:\.\/)?(?:[\w@+-][\w@.+-]*\/)+[\w+-][\w.+-]*\.[A-Za-z][A-Za-z0-9]{0,9})(?::(\d{1,7})(?:[-–]\d{1,7})?|#L(\d{1,7}))?(?![\w/])/g;
/** A backticked identifier, optionally dotted and with `()`: `foo`, `Foo.bar`, `bar()`. */
const BACKTICKED = /`([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)(?:\(\))?`/g;
/** Documentation, not code: a memory naming another memory or a doc is not a code citation. */
const NOT_CODE = /\.(?:md|markdown|mdx|txt)$/i;

/** `./a/b` → `a/b`; undefined for paths that leave the repository or are absolute. */
export function normaliseCitedPath(path: string): string | undefined {
  const p = path.trim().replace(/\\/g, '/').replace(/^\.\//, '');
  if (!p || p.startsWith('/') || /^[A-Za-z]:/.test(p)) return undefined;
  const parts = p.split('/');
  if (parts.some((s) => s === '..' || s === '.' || s === '')) return undefined;
  return p.replace(/#L\d+(?:-L?\d+)?$/, '');
}

/**
 * The citations of a memory.
 * @param text the memory's text (an entry body or a chunk's lines).
 * @param files front-matter `files:` paths (kept even for docs: a person declared them).
 */
export function extractCitations(text: string, files: readonly string[] = []): CitationSet {
  const paths: CodeCitation[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const p = normaliseCitedPath(f);
    if (p && !seen.has(p)) {
      seen.add(p);
      paths.push({ path: p, from: 'files' });
    }
  }
  for (const m of text.matchAll(TEXT_PATH)) {
    const p = normaliseCitedPath(m[1]!);
    if (!p || NOT_CODE.test(p) || seen.has(p)) continue;
    seen.add(p);
    const line = m[2] ?? m[3];
    paths.push(line ? { path: p, line: Number(line), from: 'text' } : { path: p, from: 'text' });
  }
  const names: string[] = [];
  for (const m of text.matchAll(BACKTICKED)) {
    const last = m[1]!.split(/\.|::|#/).pop()!;
    if (last.length >= 3 && !names.includes(last)) names.push(last);
  }
  return { paths, names };
}

const escape = (s: string) => s.replace(/[$]/g, '\\$');

/**
 * Whether `code` defines `name`: a declaration (`function`, `class`, `interface`, `type`, `enum`,
 * `const`/`let`/`var`, `def`, `fn`, `func`, `struct`, `trait`, `#define`), a function-valued
 * assignment (`name = (…) =>`, `name: function`), or a method head at the start of a line
 * (`async name(…) {`). Lexical, language-agnostic; a name merely used is not defined.
 */
export function definesName(code: string, name: string): boolean {
  const n = escape(name);
  const b = `(?<![\\w$])${n}(?![\\w$])`;
  const patterns = [
    `\\b(?:function\\*?|class|interface|type|enum|const|let|var|def|fn|func|struct|trait|module|namespace|record|val)\\s+${b}`,
    `#define\\s+${b}`,
    `${b}\\s*(?::[^=\\n;]*)?[:=]\\s*(?:async\\s*)?(?:function\\b|\\([^)\\n]*\\)\\s*(?::[^=\\n]*)?=>|[\\w$]+\\s*=>)`,
    `^[ \\t]*(?:(?:public|private|protected|static|async|override|readonly|get|set|export|default)\\s+)*${b}\\s*(?:<[^>\\n]*>)?\\([^\\n]*\\)[^\\n;]*\\{`,
  ];
  return patterns.some((p) => new RegExp(p, 'm').test(code));
}
