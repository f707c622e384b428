// CURRENT_STATE.md findings as core Diagnostics with stable `memory.state.*` codes: missing or
// duplicate sections, unknown sections, setext underlines, a missing or bad `> Last updated:` line,
// a stale active state, placeholder and template text. Pure; imports only core.
//
// ok:      # Current State / > Last updated: 2026-11-27T16:40:00+01:00 / the six `##` sections
// not ok:  > Last updated: yesterday                      ← memory.state.bad-timestamp
//          Profiling the join⏎---                          ← memory.state.setext-heading
//          (no `## Blockers`)                              ← memory.state.missing-section
import { DiagnosticCode, type Diagnostic } from '../core/diagnostics.js';
import type { MemoryDoc } from '../core/document.js';
import type { RelPath } from '../core/paths.js';
import type { Range } from '../core/position.js';
import { parseState, type ParsedState } from './parse-state.js';
import { hasContent, isActive } from './render-state.js';
import { STATE_SECTIONS, STATE_TITLE } from './sections.js';
import { freshnessOf } from './snapshot.js';

export interface StateValidationOptions {
  readonly now: Date;
  readonly staleAfterHours: number;
}

function lineRange(parsed: ParsedState, line: number, endLine = line): Range {
  const l = Math.max(0, Math.min(line, parsed.lines.length - 1));
  const e = Math.max(l, Math.min(endLine, parsed.lines.length - 1));
  return { start: { line: l, character: 0 }, end: { line: e, character: parsed.lines[e]?.length ?? 0 } };
}

/** @returns the diagnostics of one CURRENT_STATE.md, sorted by line. */
export function validateState(path: RelPath, parsed: ParsedState, options: StateValidationOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (line: number, endLine?: number) => lineRange(parsed, line, endLine);
  const top = parsed.titleLine ?? 0;

  for (const p of parsed.problems) {
    out.push({
      path,
      range: at(p.line, p.endLine),
      severity: p.severity,
      code: p.code,
      message: p.message,
      ...(p.data ? { data: p.data } : {}),
    });
  }
  if (parsed.titleLine === undefined) {
    out.push({
      path,
      range: at(0),
      severity: 'warning',
      code: DiagnosticCode.stateMissingSection,
      message: `CURRENT_STATE.md should start with "# ${STATE_TITLE}"`,
      data: { section: STATE_TITLE },
    });
  }
  const present = new Set(parsed.sections.map((s) => s.known).filter((k) => k !== undefined));
  const missing = STATE_SECTIONS.filter((s) => !present.has(s));
  for (const s of missing) {
    out.push({
      path,
      range: at(top),
      severity: 'warning',
      code: DiagnosticCode.stateMissingSection,
      message: `section "## ${s}" is missing; \`gitmem state set\` adds it`,
      data: { section: s },
    });
  }
  if (!parsed.updated) {
    out.push({
      path,
      range: at(top),
      severity: 'warning',
      code: DiagnosticCode.stateMissingTimestamp,
      message: 'no "> Last updated: <ISO-8601 with offset>" line; the state is treated as stale',
    });
  } else if (!parsed.updated.date) {
    out.push({
      path,
      range: at(parsed.updated.line),
      severity: 'warning',
      code: DiagnosticCode.stateBadTimestamp,
      message: `"${parsed.updated.raw}" is not an ISO-8601 date-time with an offset (e.g. 2026-11-27T16:40:00+01:00); the state is treated as stale`,
      data: { value: parsed.updated.raw },
    });
  }
  const active = isActive(parsed.fields);
  if (active && parsed.updated?.date) {
    const { freshness, ageHours } = freshnessOf(parsed, options.now, options.staleAfterHours);
    if (freshness === 'stale') {
      out.push({
        path,
        range: at(parsed.updated.line),
        severity: 'warning',
        code: DiagnosticCode.stateStale,
        message: `the working state was last updated ${Math.round(ageHours ?? 0)} h ago (stale after ${options.staleAfterHours} h); update it or start fresh with \`gitmem state new\``,
        data: { ageHours: Number((ageHours ?? 0).toFixed(2)), staleAfterHours: options.staleAfterHours },
      });
    }
  }
  if (!active && hasContent(parsed.fields)) {
    const sec = parsed.sections.find((s) => s.known === 'Objective');
    out.push({
      path,
      range: at(sec ? sec.headingLine : top),
      severity: 'warning',
      code: DiagnosticCode.statePlaceholder,
      message:
        'the Objective is empty or a placeholder but other sections have content, so the state reads as idle and the snapshot is empty; set the objective',
      data: { section: 'Objective' },
    });
  }
  for (const name of parsed.templateText) {
    const sec = parsed.sections.find((s) => s.known === name);
    out.push({
      path,
      range: at(sec ? sec.headingLine : top),
      severity: 'information',
      code: DiagnosticCode.statePlaceholder,
      message: `"## ${name}" still holds template text; it is read as empty`,
      data: { section: name },
    });
  }
  return out.sort(
    (a, b) => a.range.start.line - b.range.start.line || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}

/**
 * Diagnostics of every `current_state` document in `docs` (the hook service/validate/validate.ts calls, and
 * what an LSP can publish for an open CURRENT_STATE.md).
 */
export function validateStateDocs(docs: Iterable<MemoryDoc>, options: StateValidationOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const d of docs) if (d.kind === 'current_state') out.push(...validateState(d.path, parseState(d.text), options));
  return out;
}
