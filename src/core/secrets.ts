// Credential finder for memory text: private key blocks, common token formats and high-entropy
// assignments. Pure: no imports at all, so the same finder can serve checkpoint (git/) and a
// validation rule (validate/rules/secrets.ts). Findings never carry the secret itself.

/** One suspected credential. Lines are 1-based; `column` is 1-based in UTF-16 code units. */
export interface SecretFinding {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  /** Stable rule id, e.g. `private-key`, `aws-access-key`, `github-token`, `generic-assignment`. */
  readonly rule: SecretRule;
  /** The first 4 characters of the match followed by `…` (enough to find it, not to use it). */
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
  | 'generic-assignment';

/** A line carrying this marker is never reported (for documented fake keys in memory). */
export const ALLOW_MARKER = 'gitmem:allow-secret';

interface TokenPattern {
  readonly rule: SecretRule;
  readonly re: RegExp;
}

const TOKENS: readonly TokenPattern[] = [
  { rule: 'private-key', re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/g },
  { rule: 'aws-access-key', re: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[0-9A-Z]{16}\b/g },
  { rule: 'github-token', re: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { rule: 'slack-token', re: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { rule: 'slack-webhook', re: /https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9_]+\/B[A-Za-z0-9_]+\/[A-Za-z0-9_]+/g },
  { rule: 'openai-key', re: /\bsk-(?:proj-|svcacct-|admin-|ant-[a-z0-9]+-)?[A-Za-z0-9_-]{20,}/g },
  { rule: 'npm-token', re: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { rule: 'google-api-key', re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { rule: 'stripe-key', re: /\b(?:sk|rk)_live_[0-9A-Za-z]{20,}\b/g },
];

/** `password = value`, `api_key: "value"`, `TOKEN=value`, `"client_secret": "value"`. */
const ASSIGNMENT =
  /(?:^|[^A-Za-z0-9])((?:[A-Za-z0-9]+[_-])*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token|credentials?)(?:[_-][A-Za-z0-9]+)*)["']?\s*(?::=|=|:)\s*["'`]?([^\s"'`,;]+)/gi;

const PLACEHOLDER = /^(?:<.*>|\$\{.*\}|\$[A-Z_]+|%[A-Z_]+%|\{\{.*\}\}|x{3,}|\*{3,}|\.{3,}|changeme|example\S*|your[_-]\S*|dummy\S*|fake\S*|test\S*|placeholder\S*|redacted|null|none|true|false|undefined)$/i;

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

function preview(match: string): string {
  return `${[...match].slice(0, 4).join('')}…`;
}

/**
 * Scan lines of `path` for credentials.
 * @param lines the lines to scan with their 1-based numbers (e.g. only the lines a change adds).
 * @returns findings sorted by line then column; at most one finding per rule per line.
 */
export function findSecrets(path: string, lines: Iterable<{ readonly line: number; readonly text: string }>): SecretFinding[] {
  const out: SecretFinding[] = [];
  for (const { line, text } of lines) {
    if (text.includes(ALLOW_MARKER)) continue;
    const seen = new Set<SecretRule>();
    const covered: Array<[number, number]> = [];
    for (const p of TOKENS) {
      p.re.lastIndex = 0;
      for (const m of text.matchAll(p.re)) {
        if (p.rule === 'openai-key' && !(/[0-9]/.test(m[0]) && /[A-Za-z]{2}/.test(m[0].slice(3)))) continue;
        covered.push([m.index, m.index + m[0].length]);
        if (seen.has(p.rule)) continue;
        seen.add(p.rule);
        out.push({ path, line, column: m.index + 1, rule: p.rule, preview: preview(m[0]) });
      }
    }
    ASSIGNMENT.lastIndex = 0;
    for (const m of text.matchAll(ASSIGNMENT)) {
      const value = m[2] ?? '';
      const start = m.index + m[0].length - value.length;
      if (covered.some(([a, b]) => start < b && start + value.length > a)) continue; // already reported as a token
      if (!looksRandom(value) || seen.has('generic-assignment')) continue;
      seen.add('generic-assignment');
      out.push({ path, line, column: start + 1, rule: 'generic-assignment', preview: preview(value) });
    }
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Scan every line of `text` (line ends `\n` or `\r\n`). */
export function findSecretsInText(path: string, text: string): SecretFinding[] {
  return findSecrets(
    path,
    text.split(/\r?\n/).map((t, i) => ({ line: i + 1, text: t })),
  );
}
