// Credential finder for memory text: private key blocks, common token formats and high-entropy
// assignments. Pure (imports only core/errors), so the same finder serves checkpoint (git/), a
// validation rule (validate/rules/secrets.ts) and the write guard every file write goes through
// ({@link refuseSecretsInWrite}, called by the workspace file system). Findings never carry the
// secret itself.
import { MemoryError } from './errors.js';
import { GenerationMemo } from './generation-memo.js';

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

export type SecretRule =
  | 'private-key'
  | 'aws-access-key'
  | 'github-token'
  | 'slack-token'
  | 'slack-webhook'
  | 'openai-key'
  | 'npm-token'
  | 'google-api-key'
  | 'stripe-key'
  | 'gitlab-token'
  | 'huggingface-token'
  | 'sendgrid-key'
  | 'telegram-bot-token'
  | 'age-secret-key'
  | 'jwt'
  | 'bearer-token'
  | 'url-credentials'
  | 'generic-assignment';

/**
 * A line carrying this marker is never reported (for documented fake keys in memory) — in a file a
 * person edited by hand. Text a gitmem write brings in is scanned as if it were absent
 * ({@link AllowMarkers} `ignored`): the write guards below, so an agent cannot exempt its own text.
 */
export const ALLOW_MARKER = 'gitmem:allow-secret';

/**
 * Whether the allow markers (`gitmem:allow-secret`, and `gitmem:allow-instruction` of core/injection.ts)
 * exempt a line: `honoured` for text read from a file (validate, checkpoint, masking, the editor),
 * `ignored` for text arriving through a gitmem write (CLI, MCP, the language server, ACE, import, the
 * memory tool) and for names (paths, ids, tags), which are not a person's marked line.
 */
export type AllowMarkers = 'honoured' | 'ignored';

/**
 * What a write-path refusal says instead of offering the marker: the marker is a person's word on
 * a line already in a file they edit, never part of text handed to a write.
 */
export const MARKED_BY_HAND_HINT = 'a documented fake belongs in a file a person edits by hand, marked there';

/** The hint of a write guard's refusal: never the marker (a write cannot exempt its own text). */
const WRITE_HINT = `remove the credential (keep it in a secret manager and write where it lives instead); ${MARKED_BY_HAND_HINT}`;

interface TokenPattern {
  readonly rule: SecretRule;
  readonly re: RegExp;
}

const TOKENS: readonly TokenPattern[] = [
  { rule: 'private-key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g },
  { rule: 'aws-access-key', re: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[0-9A-Z]{16}\b/g },
  { rule: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { rule: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  {
    rule: 'slack-webhook',
    re: /https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9_]+\/B[A-Za-z0-9_]+\/[A-Za-z0-9_]+/g,
  },
  { rule: 'openai-key', re: /\bsk-(?:proj-|svcacct-|admin-|ant-[a-z0-9]+-)?[A-Za-z0-9_-]{20,}/g },
  { rule: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { rule: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { rule: 'stripe-key', re: /\b(?:sk|rk)_live_[0-9A-Za-z]{20,}\b/g },
  { rule: 'gitlab-token', re: /\bgl(?:pat|dt|ptt|rt|cbt|ft|soat)-[0-9A-Za-z_-]{20,}/g },
  { rule: 'huggingface-token', re: /\bhf_[A-Za-z0-9]{34,}\b/g },
  { rule: 'sendgrid-key', re: /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g },
  { rule: 'telegram-bot-token', re: /\b[0-9]{8,10}:AA[0-9A-Za-z_-]{33}(?![0-9A-Za-z_-])/g },
  { rule: 'age-secret-key', re: /\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g },
  // A signed JSON Web Token: base64url header and payload (both JSON objects, so `eyJ`) and a signature.
  { rule: 'jwt', re: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g },
  // `Authorization: Bearer <token>`; the match is the token only, kept when it looks random.
  { rule: 'bearer-token', re: /(?<=\bBearer\s+)[A-Za-z0-9._~+/-]{16,}=*/g },
  // `scheme://user:password@host` (database URLs, git remotes); the match is the password only.
  { rule: 'url-credentials', re: /(?<=\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s:/@]+(?=@[^\s@])/gi },
];

/** `password = value`, `api_key: "value"`, `TOKEN=value`, `"client_secret": "value"`. */
const ASSIGNMENT =
  /(?:^|[^A-Za-z0-9])((?:[A-Za-z0-9]+[_-])*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token|account[_-]?key|shared[_-]?access[_-]?key|credentials?)(?:[_-][A-Za-z0-9]+)*)["']?\s*(?::=|=|:)\s*["'`]?([^\s"'`,;]+)/gi;

const PLACEHOLDER =
  /^(?:<.*>|\$\{.*\}|\$[A-Z_]+|%[A-Z_]+%|\{\{.*\}\}|x{3,}|\*{3,}|\.{3,}|changeme|example\S*|your[_-]\S*|dummy\S*|fake\S*|test\S*|placeholder\S*|redacted|null|none|true|false|undefined)$/i;

/** Shannon entropy of `s` in bits per character. */
export function shannonEntropy(s: string): number {
  if (!s) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const n = [...s].length;
  let h = 0;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

/** A value that looks machine-generated: long enough, mixed character classes, high entropy. */
export function looksRandom(value: string): boolean {
  if (value.length < 12 || PLACEHOLDER.test(value)) return false;
  if (/^https?:\/\//i.test(value) || /^[./~]/.test(value)) return false; // URLs and paths
  if (/^[a-z]+(?:[_-][a-z]+)*$/i.test(value)) return false; // plain words / identifiers
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(value)).length;
  if (classes < 2) return false;
  return shannonEntropy(value) >= 3.5;
}

/** A key naming a password (`password`, `db_passwd`, `PWD`), not a token or key. */
const PASSWORD_KEY = /(?:^|[_-])(?:password|passwd|pwd)(?:$|[_-])/i;

/**
 * A value after a password key that looks like a real password even though it is short or
 * low-entropy (`hunter2`, `S3cret!`): 6+ characters, two character classes, not a placeholder,
 * path, URL or hyphenated/underscored words (`correct-horse-battery-staple`, `min-length-12`).
 */
function looksLikePassword(value: string): boolean {
  if (value.length < 6 || PLACEHOLDER.test(value) || !isUrlPassword(value)) return false;
  if (/^https?:\/\//i.test(value) || /^[./~]/.test(value)) return false;
  if (/^[a-z]+(?:[_-][a-z0-9]+)*$/i.test(value)) return false;
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((r) => r.test(value)).length >= 2;
}

/** A URL's password part that is not a placeholder (`<pw>`, `${PW}`, `password`, `***`). */
function isUrlPassword(value: string): boolean {
  if (PLACEHOLDER.test(value)) return false;
  return !/^(?:pass(?:word)?|passwd|pwd|secret|pw|x+)$/i.test(value);
}

/** The first characters of `match` and `…`: 4, or a third of a short value (a password's 7 letters). */
function preview(match: string): string {
  const chars = [...match];
  return `${chars.slice(0, Math.min(4, Math.floor(chars.length / 3))).join('')}…`;
}

/** What one line holds: findings without path and line (a pure function of the line's text). */
type LineFinding = Omit<SecretFinding, 'path' | 'line'>;
const NONE: readonly LineFinding[] = Object.freeze([]);

/** One credential's place in a line: UTF-16 offsets `[start, end)` and its rule. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
  readonly rule: SecretRule;
}

/**
 * Every credential match in one line's text (all of them, not one per rule), token formats first in
 * {@link TOKENS} order, then secret-looking assignment values not already inside a token; none on a
 * line holding {@link ALLOW_MARKER} unless `markers` is `ignored`. What {@link scanLine} reports and what
 * `core/secret-mask.ts` masks.
 */
export function secretSpans(text: string, markers: AllowMarkers = 'honoured'): SecretSpan[] {
  if (markers === 'honoured' && text.includes(ALLOW_MARKER)) return [];
  const out: SecretSpan[] = [];
  for (const p of TOKENS) {
    p.re.lastIndex = 0;
    for (const m of text.matchAll(p.re)) {
      if (p.rule === 'openai-key' && !(/[0-9]/.test(m[0]) && /[A-Za-z]{2}/.test(m[0].slice(3)))) continue;
      if (p.rule === 'url-credentials' && !isUrlPassword(m[0])) continue;
      if (p.rule === 'bearer-token' && !looksRandom(m[0])) continue;
      out.push({ start: m.index, end: m.index + m[0].length, rule: p.rule });
    }
  }
  const tokens = out.length;
  ASSIGNMENT.lastIndex = 0;
  for (const m of text.matchAll(ASSIGNMENT)) {
    const value = m[2] ?? '';
    const start = m.index + m[0].length - value.length;
    // Already reported as a token.
    if (out.slice(0, tokens).some((t) => start < t.end && start + value.length > t.start)) continue;
    const secretLike = looksRandom(value) || (PASSWORD_KEY.test(m[1] ?? '') && looksLikePassword(value));
    if (secretLike) out.push({ start, end: start + value.length, rule: 'generic-assignment' });
  }
  return out;
}

/**
 * What a text must contain for a pattern to match anywhere in it, for the patterns that are slow to
 * run over a whole text (lookbehinds, long alternations at every word): a cheap first test.
 */
const NEEDS: Partial<Record<SecretRule, RegExp>> = {
  'private-key': /PRIVATE KEY/,
  'github-token': /gh[pousr]_|github_pat_/,
  'npm-token': /npm_/,
  'huggingface-token': /hf_/,
  'age-secret-key': /AGE-SECRET-KEY-1/,
  'bearer-token': /Bearer\s/,
  'url-credentials': /:\/\//,
};
const ASSIGNMENT_NEEDS = /pass|pwd|secret|token|key|credential/i;

/**
 * 0-based lines of `text` (line ends `\n`, `\r\n` or `\r`) that may hold a credential: every line a
 * match of a pattern over the whole text touches. A superset of the lines {@link secretSpans} finds
 * something on (a line's match is a match in the whole text, or lies inside one that is), found
 * with one pass per pattern instead of one per line (most texts hold none).
 */
export function candidateLines(text: string): Set<number> {
  const out = new Set<number>();
  let starts: number[] | undefined;
  const lineAt = (offset: number): number => {
    if (!starts) {
      starts = [0];
      for (const m of text.matchAll(/\r\n|\r|\n/g)) starts.push(m.index + m[0].length);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  for (const [re, needs] of [
    ...TOKENS.map((p) => [p.re, NEEDS[p.rule]] as const),
    [ASSIGNMENT, ASSIGNMENT_NEEDS] as const,
  ]) {
    if (needs && !needs.test(text)) continue;
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      const last = lineAt(m.index + Math.max(0, m[0].length - 1));
      for (let l = lineAt(m.index); l <= last; l++) out.add(l);
    }
  }
  return out;
}

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

/** Scan every line of `text` (line ends `\n` or `\r\n`), through `memo` when given. */
export function findSecretsInText(path: string, text: string, memo?: SecretLineMemo): SecretFinding[] {
  return findSecrets(
    path,
    text.split(/\r?\n/).map((t, i) => ({ line: i + 1, text: t })),
    memo,
  );
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
 * derived from them) and every line new to the file, scanned as if {@link ALLOW_MARKER} were absent
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
  return [...inPath, ...findSecrets(path, newLines(previous, next), markers === 'ignored' ? WRITE_MEMO : undefined)];
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
