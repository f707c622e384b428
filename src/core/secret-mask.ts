// Secrets masked out of memory text before it is chunked, indexed, embedded or handed to an agent:
// every credential the finder of core/secrets.ts reports becomes `<short prefix>…[redacted: <kind>]`,
// e.g. `sk_live_…[redacted: Stripe key]`; a private key block masks every line from its BEGIN line
// to its END line. Line for line: a masked text has the same number of lines as the text, so line
// numbers and chunk ids stay those of the file. The file itself is never changed. Pure.
import { sha256 } from './hash.js';
import { candidateLines, secretSpans, type AllowMarkers, type SecretRule, type SecretSpan } from './secret-patterns.js';
import { mayHoldSplitSecret, splitSecretSpans, type SplitSpan } from './split-secrets.js';

/** What a redaction names for each rule. */
const KIND: Readonly<Record<SecretRule, string>> = {
  'private-key': 'private key',
  'aws-access-key': 'AWS access key',
  'github-token': 'GitHub token',
  'slack-token': 'Slack token',
  'slack-webhook': 'Slack webhook',
  'openai-key': 'OpenAI key',
  'npm-token': 'npm token',
  'google-api-key': 'Google API key',
  'stripe-key': 'Stripe key',
  'gitlab-token': 'GitLab token',
  'huggingface-token': 'Hugging Face token',
  'sendgrid-key': 'SendGrid key',
  'telegram-bot-token': 'Telegram bot token',
  'age-secret-key': 'age secret key',
  jwt: 'JWT',
  'bearer-token': 'bearer token',
  'url-credentials': 'URL password',
  'generic-assignment': 'secret',
};

/** Rules whose match starts with a fixed, public prefix (`sk_live_`, `ghp_`, `xoxb-`): that prefix is kept whole. */
const FIXED_PREFIX: ReadonlySet<SecretRule> = new Set([
  'github-token',
  'slack-token',
  'openai-key',
  'npm-token',
  'stripe-key',
  'gitlab-token',
  'huggingface-token',
  'sendgrid-key',
]);

/** The text that stands for a private key block's lines. */
const KEY_LINE = '[redacted: private key]';
/** The END line of a PEM block. */
const PEM_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
/** Lines a private key block may run for when its END line is missing. */
const MAX_KEY_LINES = 200;

/** `[redacted: Stripe key]`: the marker that replaces the secret part of a match. */
export function redaction(rule: SecretRule): string {
  return `[redacted: ${KIND[rule]}]`;
}

/** What of a match stays visible: a fixed public prefix (`sk_live_`), else at most 4 characters, a third of a short one. */
function keptPrefix(match: string, rule: SecretRule): string {
  if (FIXED_PREFIX.has(rule)) {
    const fixed = /^[A-Za-z]{2,10}(?:[_-][A-Za-z]{1,8})*[_.-]/.exec(match)?.[0];
    if (fixed && fixed.length <= 12) return fixed;
  }
  const chars = [...match];
  return chars.slice(0, Math.min(4, Math.floor(chars.length / 3))).join('');
}

/** `line` with every span masked (spans may overlap; the later of two overlapping ones is dropped). */
function maskSpans(line: string, spans: readonly (SecretSpan | SplitSpan)[]): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const s of sorted) {
    if (s.start < at) continue;
    out += line.slice(at, s.start);
    out +=
      s.rule === 'private-key'
        ? KEY_LINE
        : 'continued' in s && s.continued // the rest of a wrapped token (R131): nothing of it shown
          ? redaction(s.rule)
          : `${keptPrefix(line.slice(s.start, s.end), s.rule)}…${redaction(s.rule)}`;
    at = s.rule === 'private-key' ? line.length : s.end;
  }
  return out + line.slice(at);
}

/** A line of a private key block after its BEGIN line: the leading blanks kept, the rest one marker. */
function keyLine(line: string): string {
  return `${/^\s*/.exec(line)![0]}${KEY_LINE}`;
}

/**
 * The masked lines of `text` (line ends `\n`, `\r\n` or `\r` as in {@link LineIndex}): 0-based line
 * → its masked text, for the lines that hold a secret or sit inside a private key block. Empty when
 * nothing is masked. `markers`: whether `gitmem:allow-secret` exempts a line (default `honoured`).
 */
export function maskedLines(text: string, markers: AllowMarkers = 'honoured'): Map<number, string> {
  const out = new Map<number, string>();
  const candidates = candidateLines(text);
  const wrapped = mayHoldSplitSecret(text);
  if (candidates.size === 0 && !wrapped) return out;
  const lines = text.split(/\r\n|\r|\n/);
  const split = wrapped ? splitSecretSpans(lines, markers) : new Map<number, SplitSpan[]>();
  for (const i of split.keys()) candidates.add(i);
  for (const i of [...candidates].sort((a, b) => a - b)) {
    if (out.has(i)) continue; // inside a private key block already masked
    const line = lines[i]!;
    const spans = [...secretSpans(line, markers), ...(split.get(i) ?? [])];
    if (spans.length === 0) continue;
    out.set(i, maskSpans(line, spans));
    if (!spans.some((s) => s.rule === 'private-key') || PEM_END.test(line)) continue;
    // The key's body and END line: up to the END line, or while lines look like a PEM body.
    for (let j = i + 1; j < lines.length && j <= i + MAX_KEY_LINES; j++) {
      const body = lines[j]!;
      if (PEM_END.test(body)) {
        out.set(j, keyLine(body));
        break;
      }
      if (!/^\s*(?:[A-Za-z0-9+/=]{8,}|[A-Za-z-]+:.*)?\s*$/.test(body) || !body.trim()) break;
      out.set(j, keyLine(body));
    }
  }
  return out;
}

/**
 * `text` with its secrets masked, line for line (same line ends, same number of lines); `text` itself
 * when it holds none. `markers`: `ignored` for text a write brings in (default `honoured`).
 */
export function maskSecrets(text: string, markers: AllowMarkers = 'honoured'): string {
  const masked = maskedLines(text, markers);
  if (masked.size === 0) return text;
  const parts = text.split(/(\r\n|\r|\n)/);
  for (const [i, t] of masked) parts[i * 2] = t;
  return parts.join('');
}

/**
 * A name as shown (a file path, an entry id, a tag, a `path:line` reference): every secret in it
 * masked as {@link maskSecrets} masks a line, `gitmem:allow-secret` not honoured (a name is not a
 * person's marked line). `name` itself when it holds none.
 */
export function maskName(name: string): string {
  return maskSecrets(name, 'ignored');
}

/** 36 letters and digits, the stuff of the probe's made-up tokens (none is a real credential). */
const ALNUM = 'A1bC2dE3fG4hI5jK6lM7nO8pQ9rS0tUvWxYz';
const run = (n: number, upper = false): string => {
  const s = ALNUM.repeat(Math.ceil(n / ALNUM.length)).slice(0, n);
  return upper ? s.toUpperCase() : s;
};

/**
 * A made-up text holding every {@link SecretRule}'s shape, whole, wrapped across a line end and cut
 * by a blank, and a marked line: what {@link maskingDigest} masks. Built at run time so the source holds no token.
 */
export function maskingProbe(): string {
  const jwt = `eyJ${run(12)}.eyJ${run(12)}.${run(12)}`;
  return [
    `-----BEGIN RSA PRIVATE KEY-----`,
    run(40),
    `-----END RSA PRIVATE KEY-----`,
    `aws AKIA${run(16, true)} and wrapped AKIA`,
    run(16, true),
    `github ghp_${run(36)} and wrapped ghp_`,
    `${run(36)} tail, cut by a blank ghp_ ${run(36)}`,
    `slack xoxb-${run(20)} https://hooks.slack.com/services/T${run(8)}/B${run(8)}/${run(24)}`,
    `openai sk-proj-${run(30)} npm npm_${run(36)} google AIza${run(35)}`,
    `stripe sk_live_${run(24)} wrapped sk_live_`,
    run(24),
    `gitlab glpat-${run(20)} hf hf_${run(34)} sendgrid SG.${run(22)}.${run(43)}`,
    `telegram 123456789:AA${run(33)} age AGE-SECRET-KEY-1${run(58, true)}`,
    `jwt ${jwt} wrapped ${jwt.slice(0, 20)}`,
    jwt.slice(20),
    `Authorization: Bearer ${run(24)} url postgres://app:${run(14)}@db.internal`,
    `password = ${run(16)} api_key: "${run(20)}"`,
    `ghp_${run(36)} <!-- gitmem:allow-secret -->`,
  ].join('\n');
}

let digest: string | undefined;

/**
 * What masking does, as 12 hex digits: the digest of {@link maskSecrets} over {@link maskingProbe}.
 * Part of the chunker's fingerprint (parse/chunk.ts `chunkerFingerprint`), so an index whose chunk
 * texts were masked by other rules is rebuilt, never served (R140). Computed once.
 */
export function maskingDigest(): string {
  digest ??= sha256(maskSecrets(maskingProbe())).slice(0, 12);
  return digest;
}
