// What a diagnostic's message may carry of the file: messages repeat the value they complain about
// (`got "…"`, `supersedes "…"`, `verified value "…"`) and reach the agent through MCP
// `memory_validate` and `gitmem validate`, so every message is masked and labelled as memory text is
// (R130). Pure; imports only core.
import type { Diagnostic } from '../core/diagnostics.js';
import { DiagnosticCode } from '../core/diagnostics.js';
import { INJECTION_LABEL, injectionOfLine } from '../core/injection.js';
import { maskName } from '../core/secret-mask.js';

/**
 * `message` with every credential masked (`ghp_…[redacted: GitHub token]`; `gitmem:allow-secret` not
 * honoured, a message is not a person's marked line) and, when it repeats text flagged as an order,
 * labelled `[suspected instruction, quoted]` in front.
 */
export function guardedMessage(message: string): string {
  const masked = maskName(message);
  if (masked.startsWith(INJECTION_LABEL) || injectionOfLine(masked, 'ignored') === undefined) return masked;
  return `${INJECTION_LABEL} ${masked}`;
}

/** A diagnostic's `data` value with every string in it masked as a name is (R143). */
function maskedData(v: unknown): unknown {
  if (typeof v === 'string') return maskName(v);
  if (Array.isArray(v)) return v.map(maskedData);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskedData(x)]));
  return v;
}

/**
 * `diag` with its message guarded ({@link guardedMessage}; the injection rule's own message as it is)
 * and the strings of its `data` masked: data carries the value too (a link's `target`, an id), and
 * reaches the editor, `validate --json` and the titles of the code actions made from it (R143).
 */
export function guardDiagnostic(diag: Diagnostic): Diagnostic {
  const message = diag.code === DiagnosticCode.injectionSuspect ? diag.message : guardedMessage(diag.message);
  const data = diag.data === undefined ? undefined : (maskedData(diag.data) as Diagnostic['data']);
  if (message === diag.message && JSON.stringify(data) === JSON.stringify(diag.data)) return diag;
  return { ...diag, message, ...(data !== undefined ? { data } : {}) };
}
