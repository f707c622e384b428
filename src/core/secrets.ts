// Credential finder for memory text: private key blocks, common token formats and high-entropy
// assignments (the patterns: core/secret-patterns.ts). Pure (imports only core), so the same finder serves checkpoint (git/), a
// validation rule (validate/rules/secrets.ts) and the write guard every file write goes through
// ({@link refuseSecretsInWrite}, called by the workspace file system). Findings never carry the
// secret itself.
import { MemoryError } from './errors.js';
import { GenerationMemo } from './generation-memo.js';
import { ALLOW_MARKER, secretSpans, type AllowMarkers, type SecretRule } from './secret-patterns.js';
import { mayHoldSplitSecret, splitSecretSpans } from './split-secrets.js';

export {
  ALLOW_MARKER,
  candidateLines,
  looksRandom,
  secretSpans,
  shannonEntropy,
  type AllowMarkers,
  type SecretRule,
  type SecretSpan,
} from './secret-patterns.js';

/** One suspected credential. Lines are 1-based; `column` is 1-based in UTF-16 code units. */
export interface SecretFinding {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  /** Stable rule id, e.g. `private-key`, `aws-access-key`, `github-token`, `generic-assignment`. */
  readonly rule: SecretRule;
  /** The first characters of the match (4, fewer for a short one) followed by `…` (enough to find it, not to use it). */
  readonly preview: string;
}

/**
 * What a write-path refusal says instead of offering the marker: the marker is a person's word on
 * a line already in a file they edit, never part of text handed to a write.
 */
export const MARKED_BY_HAND_HINT = 'a documented fake belongs in a file a person edits by hand, marked there';

/** The hint of a write guard's refusal: never the marker (a write cannot exempt its own text). */
const WRITE_HINT = `remove the credential (keep it in a secret manager and write where it lives instead); ${MARKED_BY_HAND_HINT}`;

/** The first characters of `match` and `…`: 4, or a third of a short value (a password's 7 letters). */
function preview(match: string): string {
  const chars = [...match];
  return `${chars.slice(0, Math.min(4, Math.floor(chars.length / 3))).join('')}…`;
}

/** What one line holds: findings without path and line (a pure function of the line's text). */
type LineFinding = Omit<SecretFinding, 'path' | 'line'>;
const NONE: readonly LineFinding[] = Object.freeze([]);

/** The findings of one line's text, in the order {@link findSecrets} reports them within a line: the first match of each rule. */
function scanLine(text: string, markers: AllowMarkers = 'honoured'): readonly LineFinding[] {
  const out: LineFinding[] = [];
  const seen = new Set<SecretRule>();
  for (const s of secretSpans(text, markers)) {
    if (seen.has(s.rule)) continue;
    seen.add(s.rule);
    out.push({ column: s.start + 1, rule: s.rule, preview: preview(text.slice(s.start, s.end)) });
  }
  return out.length ? out : NONE;
}

/** Lines longer than this are scanned every time, never remembered. */
const MEMO_MAX_LINE = 4096;

/**
 * Findings per line text, remembered: a line's findings depend on its text alone ({@link scanLine}),
 * so a file edited on one line is scanned again on that line only, and the answer equals a full
 * scan. Bounded as a {@link GenerationMemo} of line texts, so what a scan keeps reading stays.
 */
export class SecretLineMemo {
  readonly #memo: GenerationMemo<readonly LineFinding[]>;
  /** Whether the allow marker exempts a line in this memo's scans. */
  readonly markers: AllowMarkers;

  /**
   * @param maxChars line text kept per generation (default 8 Mi UTF-16 units).
   * @param markers `ignored` for the write guards' scans (default `honoured`).
   */
  constructor(maxChars = 8 * 1024 * 1024, markers: AllowMarkers = 'honoured') {
    this.#memo = new GenerationMemo(maxChars, MEMO_MAX_LINE);
    this.markers = markers;
  }

  /** Lines remembered now. */
  get size(): number {
    return this.#memo.size;
  }

  findings(text: string): readonly LineFinding[] {
    return this.#memo.get(text, () => scanLine(text, this.markers));
  }
}

/**
 * Scan lines of `path` for credentials.
 * @param lines the lines to scan with their 1-based numbers (e.g. only the lines a change adds).
 * @param memo remembers each line's findings (the editor rescans a big file on every edit).
 * @returns findings sorted by line then column; at most one finding per rule per line.
 */
export function findSecrets(
  path: string,
  lines: Iterable<{ readonly line: number; readonly text: string }>,
  memo?: SecretLineMemo,
): SecretFinding[] {
  const out: SecretFinding[] = [];
  for (const { line, text } of lines) {
    const found = memo ? memo.findings(text) : scanLine(text);
    for (const f of found) out.push({ path, line, ...f });
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * Credentials wrapped across a line end or cut by blanks in `lines` (core/split-secrets.ts, R141):
 * one finding per token, at its first line and column, its preview made from the joined token. `touches` picks the
 * tokens to report by their two 1-based lines (default all). A line holding {@link ALLOW_MARKER}
 * exempts a token on it or the next line unless `markers` is `ignored`.
 */
function wrappedFindings(
  path: string,
  lines: readonly string[],
  markers: AllowMarkers,
  touches: (first: number, second: number) => boolean = () => true,
): SecretFinding[] {
  const out: SecretFinding[] = [];
  const marked = (i: number) => markers === 'honoured' && (lines[i] ?? '').includes(ALLOW_MARKER);
  for (const [i, spans] of splitSecretSpans(lines, markers)) {
    for (const s of spans.filter((x) => !x.continued)) {
      const last = s.inLine ? i : i + 1;
      if (!touches(i + 1, last + 1) || marked(i) || marked(last)) continue;
      const token = s.inLine ? lines[i]!.slice(s.start, s.end) : lines[i]!.slice(s.start) + lines[i + 1]!.trim();
      out.push({ path, line: i + 1, column: s.start + 1, rule: s.rule, preview: preview(token) });
    }
  }
  return out;
}

/**
 * Scan `text` (line ends `\n` or `\r\n`): every line, through `memo` when given, and the credentials
 * wrapped across a line end (R141).
 */
export function findSecretsInText(path: string, text: string, memo?: SecretLineMemo): SecretFinding[] {
  const lines = text.split(/\r?\n/);
  const found = findSecrets(
    path,
    lines.map((t, i) => ({ line: i + 1, text: t })),
    memo,
  );
  if (!mayHoldSplitSecret(text)) return found;
  return sortFindings([...found, ...wrappedFindings(path, lines, memo?.markers ?? 'honoured')]);
}

/**
 * The findings of the lines `added` to a file whose text is now `next` (1-based lines of `next`), and
 * of the credentials wrapped across a line end that touch an added line (R141): what a change brings in.
 */
export function findSecretsAdded(
  path: string,
  next: string,
  added: readonly { readonly line: number; readonly text: string }[],
  markers: AllowMarkers = 'honoured',
): SecretFinding[] {
  const found = findSecrets(path, added, markers === 'ignored' ? WRITE_MEMO : undefined);
  if (added.length === 0 || !mayHoldSplitSecret(next)) return found;
  const isNew = new Set(added.map((a) => a.line));
  const wrapped = wrappedFindings(path, next.split(/\r?\n/), markers, (a, b) => isNew.has(a) || isNew.has(b));
  return sortFindings([...found, ...wrapped]);
}

/** `f` sorted by line then column, in place. */
function sortFindings(f: SecretFinding[]): SecretFinding[] {
  return f.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * The line findings of the write guards ({@link secretsInWrite}, {@link refuseSecretsInInput}): one
 * write's inputs are scanned before anything is derived from them and its rendered file again by the
 * file system port; a line both hold is scanned once (1 Mi UTF-16 units of line text a generation).
 * The allow marker is ignored: text a write brings in cannot exempt itself.
 */
const WRITE_MEMO = new SecretLineMemo(1024 * 1024, 'ignored');

/**
 * Lines of `next` that `previous` does not already hold (multiset difference, so a line that was
 * there before is not new), with their 1-based numbers in `next`.
 */
export function newLines(previous: string, next: string): { line: number; text: string }[] {
  const have = new Map<string, number>();
  for (const t of previous.split(/\r?\n/)) have.set(t, (have.get(t) ?? 0) + 1);
  const out: { line: number; text: string }[] = [];
  next.split(/\r?\n/).forEach((text, i) => {
    const n = have.get(text) ?? 0;
    if (n > 0) have.set(text, n - 1);
    else out.push({ line: i + 1, text });
  });
  return out;
}

/**
 * What a write would add that looks like a credential: the path itself (file names and the ids
 * derived from them) and every line new to the file (and a credential wrapped across a line end
 * when one of its lines is new, R141), scanned as if {@link ALLOW_MARKER} were absent
 * (a gitmem write never brings in a person's mark). Lines already in `previous` are not reported, so
 * an edit to a file that already holds an allowed or old finding is not blocked by it.
 * Path findings have line 0.
 * @param markers `honoured` only for a write that copies a person's memory text out as it stands
 * (`gitmem export`'s host files); default `ignored`.
 */
export function secretsInWrite(
  path: string,
  next: string,
  previous = '',
  markers: AllowMarkers = 'ignored',
): SecretFinding[] {
  const inPath = findSecrets(path, [{ line: 0, text: path }], WRITE_MEMO);
  return [...inPath, ...findSecretsAdded(path, next, newLines(previous, next), markers)];
}

/** One-line description of findings for messages: `path:line (rule)`, at most five. */
function describeFindings(findings: readonly SecretFinding[]): string {
  const where = findings.map((f) =>
    f.line === 0 ? `${f.rule} in the file name` : `${f.path}:${f.line}:${f.column} (${f.rule}, ${f.preview})`,
  );
  return `${where.slice(0, 5).join(', ')}${where.length > 5 ? `, and ${where.length - 5} more` : ''}`;
}

/**
 * The write guard: refuse to write `next` to `path` when it adds a suspected credential.
 * @throws MemoryError `secret.found` with `data.findings` (rule, line, column, 4-character preview).
 */
export function refuseSecretsInWrite(
  path: string,
  next: string,
  previous = '',
  markers: AllowMarkers = 'ignored',
): void {
  const findings = secretsInWrite(path, next, previous, markers);
  if (findings.length === 0) return;
  // A name derived from the secret (a slug of it) must not print the secret back: mask long runs.
  const shown = maskLongRuns(path);
  throw new MemoryError(
    'secret.found',
    `refusing to write ${shown}: it would hold a possible secret: ${describeFindings(findings.map((f) => ({ ...f, path: shown })))}`,
    {
      data: { path: shown, findings: findings.map((f) => ({ ...f, path: shown })) },
      hint: WRITE_HINT,
    },
  );
}

/** `s` with every run of 16+ letters and digits cut to its first 4 characters and `…`. */
function maskLongRuns(s: string): string {
  return s.replace(/[A-Za-z0-9]{16,}/g, (m) => `${m.slice(0, 4)}…`);
}

/**
 * Refuse user input that holds a suspected credential before anything is derived from it (file
 * names, ids, trailers), scanned as if {@link ALLOW_MARKER} were absent. `what` names the operation
 * in the message (`remember`, `state set`).
 * @throws MemoryError `secret.found` with `data.findings` (`path` is the field name).
 */
export function refuseSecretsInInput(
  what: string,
  fields: Readonly<Record<string, string | readonly string[] | undefined>>,
): void {
  const findings: SecretFinding[] = [];
  for (const [name, value] of Object.entries(fields)) {
    const values = value === undefined ? [] : typeof value === 'string' ? [value] : value;
    for (const v of values) findings.push(...findSecretsInText(name, v, WRITE_MEMO));
  }
  if (findings.length === 0) return;
  const where = findings.map((f) => `${f.path} line ${f.line} (${f.rule}, ${f.preview})`);
  throw new MemoryError(
    'secret.found',
    `${what}: refusing a possible secret in ${where.slice(0, 5).join(', ')}; nothing was written`,
    {
      data: { findings },
      hint: WRITE_HINT,
    },
  );
}
