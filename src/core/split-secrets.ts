// Credentials wrapped across a line end: a token whose first part ends one line and whose rest starts
// the next (`ghp_` / `AbCd…`, a JWT or API key an editor or a paste wrapped). Each half alone matches
// no pattern, yet every view that joins a section's lines (the session-start snapshot, recall's
// chunk text) put the two halves side by side (R131). Finds the spans on both lines so
// core/secret-mask.ts masks them. Pure.
import { secretSpans, type AllowMarkers, type SecretRule, type SecretSpan } from './secret-patterns.js';

/**
 * A span of one line that belongs to a wrapped credential: `continued` on the line holding its rest;
 * `inLine` for a token cut by blanks within the line (`ghp_ AbCd…`, as a view or a write that joins
 * lines with a space leaves it, R141), the span running from its start over the blanks to its end.
 */
export interface SplitSpan extends SecretSpan {
  readonly continued: boolean;
  readonly inLine?: true;
}

/** Token formats with a fixed start worth joining across a line end (not assignments, bearer or URL passwords). */
const WRAPPABLE: ReadonlySet<SecretRule> = new Set<SecretRule>([
  'aws-access-key',
  'github-token',
  'slack-token',
  'openai-key',
  'npm-token',
  'google-api-key',
  'stripe-key',
  'gitlab-token',
  'huggingface-token',
  'sendgrid-key',
  'age-secret-key',
  'jwt',
]);

/** The starts of the token formats of {@link WRAPPABLE}. */
const STARTS =
  '\\b(?:gh[pousr]_|github_pat_|xox[abposr]-|sk[-_]|rk_live_|A(?:KIA|SIA)|eyJ|AIza|gl(?:pat|dt|ptt|rt|cbt|ft|soat)-|hf_|npm_|SG\\.|AGE-SECRET-KEY-1)';
/** A line ending in the start of a token format (its run of token characters reaches the line end). */
const WRAPPED_END = new RegExp(`${STARTS}[A-Za-z0-9_.-]*[ \\t]*(?=\\r\\n|\\r|\\n)`, 'g');
/** The start of a token format, blanks, and a run of token characters: a token cut within a line. */
const GAPPED = new RegExp(`${STARTS}[A-Za-z0-9_.-]*[ \\t]+[A-Za-z0-9_.-]+`, 'g');
const TAIL = /[A-Za-z0-9_.-]+(?=[ \t]*$)/;
const HEAD = /^([ \t]*)([A-Za-z0-9_.-]+)/;

/** Whether some line of `text` ends in, or some blanks follow, the start of a token format: a cheap first test. */
export function mayHoldSplitSecret(text: string): boolean {
  WRAPPED_END.lastIndex = 0;
  GAPPED.lastIndex = 0;
  return WRAPPED_END.test(text) || GAPPED.test(text);
}

/** Tokens of `line` cut by blanks after their start (neither part matching alone), as {@link SplitSpan}s. */
function gappedSpans(line: string, markers: AllowMarkers): SplitSpan[] {
  const out: SplitSpan[] = [];
  GAPPED.lastIndex = 0;
  for (const m of line.matchAll(GAPPED)) {
    const gap = /[ \t]+/.exec(m[0])!;
    const head = m[0].slice(0, gap.index);
    const restAt = gap.index + gap[0].length;
    for (const s of secretSpans(head + m[0].slice(restAt), markers)) {
      if (!WRAPPABLE.has(s.rule) || s.start >= head.length || s.end <= head.length) continue;
      const start = m.index + s.start;
      if (secretSpans(line, markers).some((o) => o.start < start + head.length && o.end > start)) continue;
      out.push({ start, end: m.index + restAt + s.end - head.length, rule: s.rule, continued: false, inLine: true });
    }
  }
  return out;
}

/**
 * Spans of credentials wrapped across a line end in `lines` (0-based line → spans): on the first line
 * from the token's start to the line's last token character, on the next from its first token
 * character to the token's end. Only tokens neither line holds whole. And the tokens cut by blanks
 * within one line, one span each (`inLine`).
 */
export function splitSecretSpans(
  lines: readonly string[],
  markers: AllowMarkers = 'honoured',
): Map<number, SplitSpan[]> {
  const out = new Map<number, SplitSpan[]>();
  lines.forEach((line, i) => {
    const gapped = gappedSpans(line, markers);
    if (gapped.length) out.set(i, gapped);
  });
  for (let i = 0; i + 1 < lines.length; i++) {
    const tail = TAIL.exec(lines[i]!);
    const head = HEAD.exec(lines[i + 1]!);
    if (!tail || !head) continue;
    const tailStart = tail.index;
    const joined = tail[0] + head[2]!;
    for (const s of secretSpans(joined, markers)) {
      if (!WRAPPABLE.has(s.rule) || s.start >= tail[0].length || s.end <= tail[0].length) continue;
      if (secretSpans(lines[i]!, markers).some((o) => o.end > tailStart + s.start)) continue;
      const first = { start: tailStart + s.start, end: tailStart + tail[0].length, rule: s.rule, continued: false };
      const restStart = head[1]!.length;
      const rest = { start: restStart, end: restStart + s.end - tail[0].length, rule: s.rule, continued: true };
      out.set(i, [...(out.get(i) ?? []), first]);
      out.set(i + 1, [...(out.get(i + 1) ?? []), rest]);
    }
  }
  return out;
}
