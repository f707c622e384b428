// Human and JSON rendering for the CLI. Only stdout/stderr writing; no behaviour.
// deps: core, service (types).
import { diagnosticReport, type Diagnostic } from '../core/diagnostics.js';
import { maskName } from '../core/secret-mask.js';
import { shownControls } from '../core/text.js';
import { cutUnits } from '../core/words.js';
import type { GetResult } from '../service/files/get.js';
import type { RecallResponse } from '../service/recall/types.js';
import { codeLabel } from '../service/trust/recall-code.js';

/** Write `value` as pretty JSON plus a newline to stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

const tty = process.stdout.isTTY === true && !process.env.NO_COLOR;
const c = (code: string) => (s: string) => (tty ? `\u001b[${code}m${s}\u001b[0m` : s);
export const dim = c('2');
export const bold = c('1');
export const cyan = c('36');
export const yellow = c('33');
export const red = c('31');

// Names, ids, titles and text printed on a human line come from memory files, which anyone who can
// push a commit writes: every control character is shown as its visible symbol (core/text.ts
// shownControls), so no escape sequence from a file reaches the terminal (docs/bad-inputs.md U17,
// B48). On a terminal, the colour codes the helpers above write are the one exception; crafted text
// holding the same few codes can at most colour a line.
// eslint-disable-next-line no-control-regex -- the helpers' own colour codes, kept on a terminal
const OWN_COLOURS = /(\u001b\[(?:0|1|2|31|33|36)m)/;

/** `line` with every control character but tab and LF shown as a symbol (the colour codes aside). */
function humanLine(line: string): string {
  if (!tty) return shownControls(line);
  return line
    .split(OWN_COLOURS)
    .map((part, i) => (i % 2 === 1 ? part : shownControls(part)))
    .join('');
}

/** Print one human line (or several, joined by LF) on stdout, control characters shown as symbols. */
export function out(line = ''): void {
  process.stdout.write(`${humanLine(line)}\n`);
}

/** Print one human line on stderr (notes, warnings), control characters shown as symbols. */
export function err(line: string): void {
  process.stderr.write(`${shownControls(line)}\n`);
}

/**
 * Print memory text meant to be read or piped as it is (`get`, a `--budget` context block, the state
 * snapshot, a promote diff): byte for byte into a pipe or file, terminal-safe on a terminal.
 */
export function outText(text: string): void {
  process.stdout.write(`${process.stdout.isTTY === true ? shownControls(text) : text}\n`);
}

/** `text` cut to at most `max` UTF-16 units (never inside a surrogate pair), `…` marking a cut. */
function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${cutUnits(text, max - 1)}…`;
}

/** Longest heading and heading path recall prints on a result line (`--json` keeps them whole). */
const HEADING_CHARS = 60;
const HEADING_PATH_CHARS = 120;

function headingLine(path: readonly string[]): string {
  return capText(path.map((h) => capText(shownControls(h), HEADING_CHARS)).join(' › '), HEADING_PATH_CHARS);
}

/** `conflicts with …` for the newer results `r` contradicts, less those already named as superseding it. */
function conflictMark(r: RecallResponse['results'][number]): string[] {
  const w = (r.conflictsWith ?? []).filter((id) => !r.supersededBy?.includes(id));
  return w.length ? [`conflicts with ${w.join(', ')}`] : [];
}

/**
 * What a listing says beside a result's location, in order: hidden or superseded, a newer statement,
 * expired, cited code gone or changed, conflicts; with `review`, also `unreviewed` or `incoming` (the
 * agent-facing `gitmem context` listing, R102). Empty when there is nothing to say.
 */
export function resultMarks(r: RecallResponse['results'][number], review = false): string[] {
  return [
    r.hidden ? (r.supersededBy?.length ? `superseded by ${r.supersededBy.join(', ')}` : r.hidden) : '',
    r.newerStatement
      ? `superseded by ${r.newerStatement.path}:${r.newerStatement.line} (${r.newerStatement.date})`
      : '',
    r.expired ? `expired ${r.expired.date}` : '',
    codeLabel(r.code) ?? '',
    ...conflictMark(r),
    review && r.review !== undefined && r.review !== 'reviewed' ? r.review : '',
  ].filter(Boolean);
}

/** Render recall results for people: location, kind, heading path, score, snippet. */
function renderRecall(res: RecallResponse): void {
  if (res.degraded) err(`gitmem: note: ${res.degraded}`);
  for (const w of res.warnings ?? []) err(`gitmem: note: ${w}`);
  if (res.results.length === 0) {
    out(res.hint ? `No results. ${res.hint}` : `No results for "${shownControls(res.query)}".`);
    return;
  }
  res.results.forEach((r, i) => {
    const path = shownControls(r.path);
    const loc = r.startLine === r.endLine ? `${path}:${r.startLine}` : `${path}:${r.startLine}-${r.endLine}`;
    const head = r.headingPath.length ? ` ${dim(headingLine(r.headingPath))}` : '';
    const entry = r.entry
      ? ` ${yellow(shownControls(`[${r.entry.type ?? r.kind}] ${r.entry.id}`))}`
      : ` ${dim(`[${r.kind}]`)}`;
    const marks = resultMarks(r);
    const mark = marks.length ? ` ${red(shownControls(`[${marks.join('; ')}]`))}` : '';
    out(`${bold(String(i + 1).padStart(2))}. ${cyan(loc)}${entry}${mark}${head} ${dim(`score ${r.score.toFixed(3)}`)}`);
    out(`    ${shownControls(r.snippet)}`);
    if (r.lineage)
      out(
        dim(
          shownControls(
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
  err(
    `gitmem: possible conflict with ${c.id} (${c.path}; same subject, ${c.reasons.join(', ')} differs; similarity ${c.similarity}).\n` +
      `  supersede the old one: add \`supersedes: [${c.id}]\` to ${newId}; or keep both: add \`compatible_with: [${c.id}]\`.`,
  );
}

/** Render diagnostics like a compiler: path:line:col severity code message. */
function renderDiagnostics(diags: readonly Diagnostic[]): void {
  for (const d of diags) {
    const sev = d.severity === 'error' ? red('error') : d.severity === 'warning' ? yellow('warning') : d.severity;
    out(
      `${maskName(d.path)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${sev} ${d.message} ${dim(d.code)}`,
    );
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
  else if (res.context) {
    if (res.context.note) err(`gitmem: note: ${res.context.note}`);
    outText(res.context.text.trimEnd());
  } else renderRecall(res);
}

/** Print a `get` answer. */
export function showGet(res: GetResult, json: boolean): void {
  if (json) printJson(res);
  else {
    // An id held by two files is said, not silently resolved to one of them (R30).
    if (res.alsoAt?.length)
      err(
        `gitmem: note: id ${res.entry?.id ?? ''} is held by ${res.alsoAt.length + 1} files: ${[res.path, ...res.alsoAt].join(', ')}; showing ${res.path} (gitmem validate reports the duplicate)`,
      );
    out(dim(`${shownControls(res.path)}:${res.startLine}-${res.endLine}`));
    outText(res.text);
  }
}
