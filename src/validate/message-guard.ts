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

/** `diag` with its message guarded ({@link guardedMessage}); the injection rule's own message as it is. */
export function guardDiagnostic(diag: Diagnostic): Diagnostic {
  if (diag.code === DiagnosticCode.injectionSuspect) return diag;
  const message = guardedMessage(diag.message);
  return message === diag.message ? diag : { ...diag, message };
}
