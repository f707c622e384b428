// Credentials wrapped across a line end: a token whose first part ends one line and whose rest starts
// the next (`ghp_` / `AbCd…`, a JWT or API key an editor or a paste wrapped). Each half alone matches
// no pattern, yet every view that joins a section's lines (the session-start snapshot, recall's
// chunk text) put the two halves side by side (R131). Finds the spans on both lines so
// core/secret-mask.ts masks them. Pure.
import { secretSpans, type AllowMarkers, type SecretRule, type SecretSpan } from './secret-patterns.js';

/** A span of one line that belongs to a wrapped credential: `continued` on the line holding its rest. */
export interface SplitSpan extends SecretSpan {
  readonly continued: boolean;
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

/** A line ending in the start of a token format (its run of token characters reaches the line end). */
const WRAPPED_END =
  /(?:\b(?:gh[pousr]_|github_pat_|xox[abposr]-|sk[-_]|rk_live_|A(?:KIA|SIA)|eyJ|AIza|gl(?:pat|dt|ptt|rt|cbt|ft|soat)-|hf_|npm_|SG\.|AGE-SECRET-KEY-1))[A-Za-z0-9_.-]*[ \t]*(?=\r\n|\r|\n)/g;
const TAIL = /[A-Za-z0-9_.-]+(?=[ \t]*$)/;
const HEAD = /^([ \t]*)([A-Za-z0-9_.-]+)/;

/** Whether some line of `text` ends in the start of a token format: a cheap first test, one pass. */
export function mayHoldSplitSecret(text: string): boolean {
  WRAPPED_END.lastIndex = 0;
  return WRAPPED_END.test(text);
}

/**
 * Spans of credentials wrapped across a line end in `lines` (0-based line → spans): on the first line
 * from the token's start to the line's last token character, on the next from its first token
 * character to the token's end. Only tokens neither line holds whole.
 */
export function splitSecretSpans(
  lines: readonly string[],
  markers: AllowMarkers = 'honoured',
): Map<number, SplitSpan[]> {
  const out = new Map<number, SplitSpan[]>();
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
