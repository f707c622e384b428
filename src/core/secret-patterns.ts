// The credential patterns of memory text: token formats (private key blocks, AWS, GitHub, Slack, JWT,
// …), high-entropy and password assignments, and where in a line or a text they match. The finder
// and the write guards (core/secrets.ts), wrapped tokens (core/split-secrets.ts) and masking
// (core/secret-mask.ts) all match through {@link secretSpans}. Pure; imports nothing.
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
 * ({@link AllowMarkers} `ignored`): the write guards of core/secrets.ts, so an agent cannot exempt its own text.
 */
export const ALLOW_MARKER = 'gitmem:allow-secret';

/**
 * Whether the allow markers (`gitmem:allow-secret`, and `gitmem:allow-instruction` of core/injection.ts)
 * exempt a line: `honoured` for text read from a file (validate, checkpoint, masking, the editor),
 * `ignored` for text arriving through a gitmem write (CLI, MCP, the language server, ACE, import, the
 * memory tool) and for names (paths, ids, tags), which are not a person's marked line.
 */
export type AllowMarkers = 'honoured' | 'ignored';

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

/** One credential's place in a line: UTF-16 offsets `[start, end)` and its rule. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
  readonly rule: SecretRule;
}

/**
 * Every credential match in one line's text (all of them, not one per rule), token formats first in
 * {@link TOKENS} order, then secret-looking assignment values not already inside a token; none on a
 * line holding {@link ALLOW_MARKER} unless `markers` is `ignored`. What core/secrets.ts reports and what
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
