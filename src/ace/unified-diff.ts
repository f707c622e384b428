// A small unified diff (`--- a/… +++ b/… @@ … @@`) for reviewing promoted dream proposals and
// other planned edits before or after they are applied. Common prefix and suffix are trimmed first,
// so the usual one-line change costs nothing; the middle is diffed by LCS (bounded).
// Pure; imports nothing.

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

type Op = { t: ' ' | '-' | '+'; s: string };

function middleOps(a: readonly string[], b: readonly string[]): Op[] {
  // LCS table is O(n·m); past 4M cells fall back to "remove all, add all" (still a correct diff).
  if (a.length * b.length > 4_000_000) return [...a.map((s) => ({ t: '-' as const, s })), ...b.map((s) => ({ t: '+' as const, s }))];
  const n = a.length;
  const m = b.length;
  const dp: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ t: ' ', s: a[i]! });
      i++;
      j++;
    } else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) ops.push({ t: '-', s: a[i++]! });
    else ops.push({ t: '+', s: b[j++]! });
  }
  while (i < n) ops.push({ t: '-', s: a[i++]! });
  while (j < m) ops.push({ t: '+', s: b[j++]! });
  return ops;
}

/**
 * Unified diff of `before` → `after` for `path` with `context` lines (default 3).
 * `before` undefined means a new file, `after` undefined a deleted one.
 * @returns '' when the texts are equal.
 */
export function unifiedDiff(path: string, before: string | undefined, after: string | undefined, context = 3): string {
  if (before === after) return '';
  const a = splitLines(before ?? '');
  const b = splitLines(after ?? '');
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const ops: Op[] = [
    ...a.slice(0, pre).map((s) => ({ t: ' ' as const, s })),
    ...middleOps(a.slice(pre, a.length - suf), b.slice(pre, b.length - suf)),
    ...a.slice(a.length - suf).map((s) => ({ t: ' ' as const, s })),
  ];
  // Group changes into hunks with `context` lines around them.
  const out: string[] = [`--- ${before === undefined ? '/dev/null' : `a/${path}`}`, `+++ ${after === undefined ? '/dev/null' : `b/${path}`}`];
  const changed = ops.map((o, i) => (o.t !== ' ' ? i : -1)).filter((i) => i >= 0);
  if (changed.length === 0) return '';
  let k = 0;
  while (k < changed.length) {
    let start = Math.max(0, changed[k]! - context);
    let end = Math.min(ops.length - 1, changed[k]! + context);
    while (k + 1 < changed.length && changed[k + 1]! - context <= end + 1) {
      k++;
      end = Math.min(ops.length - 1, changed[k]! + context);
    }
    k++;
    // Line numbers of the hunk start in a and b.
    let la = 1;
    let lb = 1;
    for (let i = 0; i < start; i++) {
      if (ops[i]!.t !== '+') la++;
      if (ops[i]!.t !== '-') lb++;
    }
    const hunk = ops.slice(start, end + 1);
    const na = hunk.filter((o) => o.t !== '+').length;
    const nb = hunk.filter((o) => o.t !== '-').length;
    out.push(`@@ -${na === 0 ? la - 1 : la},${na} +${nb === 0 ? lb - 1 : lb},${nb} @@`);
    for (const o of hunk) out.push(`${o.t}${o.s}`);
    start = end + 1;
  }
  return `${out.join('\n')}\n`;
}
