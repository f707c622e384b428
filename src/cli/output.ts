// Human and JSON rendering for the CLI. Only stdout/stderr writing; no behaviour.
// deps: core, service (types).
import { diagnosticReport, type Diagnostic } from '../core/diagnostics.js';
import type { GetResult } from '../service/files/get.js';
import type { RecallResponse } from '../service/recall/types.js';

/** Write `value` as pretty JSON plus a newline to stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function out(line = ''): void {
  process.stdout.write(`${line}\n`);
}

const tty = process.stdout.isTTY === true && !process.env.NO_COLOR;
const c = (code: string) => (s: string) => (tty ? `\u001b[${code}m${s}\u001b[0m` : s);
export const dim = c('2');
export const bold = c('1');
export const cyan = c('36');
export const yellow = c('33');
export const red = c('31');

// Memory text is written by anyone who can push a commit: control characters (ESC, BEL, C1) are shown
// as visible symbols so no escape sequence from a file reaches the terminal (docs/bad-inputs.md U17).
// eslint-disable-next-line no-control-regex -- control characters are exactly what this replaces
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
const controlPicture = (ch: string): string => {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return '\ufffd';
};

/** `text` with every control character (tab aside) replaced by its visible symbol (ESC → ␛). */
function terminalSafe(text: string): string {
  return text.replace(CONTROL, controlPicture);
}

/** `text` cut to at most `max` UTF-16 units (never inside a surrogate pair), `…` marking a cut. */
function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** Text printed as it is into a pipe or file, made terminal-safe when stdout is a terminal. */
const onTerminal = (text: string): string => (process.stdout.isTTY === true ? terminalSafe(text) : text);

/** Longest heading and heading path recall prints on a result line (`--json` keeps them whole). */
const HEADING_CHARS = 60;
const HEADING_PATH_CHARS = 120;

function headingLine(path: readonly string[]): string {
  return capText(path.map((h) => capText(terminalSafe(h), HEADING_CHARS)).join(' › '), HEADING_PATH_CHARS);
}

/** Render recall results for people: location, kind, heading path, score, snippet. */
function renderRecall(res: RecallResponse): void {
  if (res.degraded) process.stderr.write(`gitmem: note: ${res.degraded}\n`);
  if (res.results.length === 0) {
    out(res.hint ? `No results. ${res.hint}` : `No results for "${terminalSafe(res.query)}".`);
    return;
  }
  res.results.forEach((r, i) => {
    const path = terminalSafe(r.path);
    const loc = r.startLine === r.endLine ? `${path}:${r.startLine}` : `${path}:${r.startLine}-${r.endLine}`;
    const head = r.headingPath.length ? ` ${dim(headingLine(r.headingPath))}` : '';
    const entry = r.entry
      ? ` ${yellow(terminalSafe(`[${r.entry.type ?? r.kind}] ${r.entry.id}`))}`
      : ` ${dim(`[${r.kind}]`)}`;
    const marks = [
      r.hidden ? (r.supersededBy?.length ? `superseded by ${r.supersededBy.join(', ')}` : r.hidden) : '',
      r.expired ? `expired ${r.expired.date}` : '',
    ].filter(Boolean);
    const mark = marks.length ? ` ${red(terminalSafe(`[${marks.join('; ')}]`))}` : '';
    out(`${bold(String(i + 1).padStart(2))}. ${cyan(loc)}${entry}${mark}${head} ${dim(`score ${r.score.toFixed(3)}`)}`);
    out(`    ${terminalSafe(r.snippet)}`);
    if (r.lineage)
      out(
        dim(
          terminalSafe(
            `    last changed in ${r.lineage.commit.slice(0, 7)} by ${r.lineage.author} on ${r.lineage.date.slice(0, 10)}`,
          ),
        ),
      );
    if (r.explain) {
      out(
        dim(
          `    keyword rank ${r.explain.keywordRank ?? '-'} score ${r.explain.keywordScore ?? '-'}; vector rank ${r.explain.vectorRank ?? '-'}`,
        ),
      );
    }
  });
  out(dim(`${res.results.length} result${res.results.length === 1 ? '' : 's'} in ${res.tookMs} ms (${res.mode})`));
}

/** Tell the writer about a possible contradiction (stderr, so stdout stays the answer). */
export function renderPossibleConflict(
  c: { id: string; path: string; similarity: number; reasons: readonly string[] } | undefined,
  newId: string,
): void {
  if (!c) return;
  process.stderr.write(
    `gitmem: possible conflict with ${c.id} (${c.path}; same subject, ${c.reasons.join(', ')} differs; similarity ${c.similarity}).\n` +
      `  supersede the old one: add \`supersedes: [${c.id}]\` to ${newId}; or keep both: add \`compatible_with: [${c.id}]\`.\n`,
  );
}

/** Render diagnostics like a compiler: path:line:col severity code message. */
function renderDiagnostics(diags: readonly Diagnostic[]): void {
  for (const d of diags) {
    const sev = d.severity === 'error' ? red('error') : d.severity === 'warning' ? yellow('warning') : d.severity;
    out(`${d.path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${sev} ${d.message} ${dim(d.code)}`);
  }
  const errors = diags.filter((d) => d.severity === 'error').length;
  const warnings = diags.filter((d) => d.severity === 'warning').length;
  out(
    diags.length
      ? `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`
      : 'No problems found.',
  );
}

/** Print `diags` (as {@link diagnosticReport} JSON under `--json`, else rendered); exit code 1 when one is an error. */
export function printDiagnostics(diags: readonly Diagnostic[], json: boolean | undefined): void {
  if (json) printJson(diagnosticReport(diags));
  else renderDiagnostics(diags);
  if (diags.some((d) => d.severity === 'error')) process.exitCode = 1;
}

/** Print a recall answer. A host's JSON adds `servedBy` (its kind): the one field besides tookMs that differs from cold. */
export function showRecall(res: RecallResponse, json: boolean, servedBy?: string): void {
  if (json) printJson(servedBy ? { ...res, servedBy } : res);
  else if (res.context) out(onTerminal(res.context.text.trimEnd()));
  else renderRecall(res);
}

/** Print a `get` answer. */
export function showGet(res: GetResult, json: boolean): void {
  if (json) printJson(res);
  else {
    out(dim(`${terminalSafe(res.path)}:${res.startLine}-${res.endLine}`));
    out(onTerminal(res.text));
  }
}
