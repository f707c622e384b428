// Rule `memory.secret.suspected`: memory is committed and shared, so a credential in it leaks. The
// same finder as the checkpoint's secrets scan (core/secrets.ts), shown as an error at the match.
// Imports only core.
//
// ok:
//   - Rotate the staging token every 90 days (stored in the vault as STAGING_TOKEN).
//   - Example key: AKIAIOSFODNN7EXAMPLE  <!-- gitmem:allow-secret -->
//
// not ok:
//   - aws key AKIA… (a real-looking access key id)      ← memory.secret.suspected (error)
//   - -----BEGIN OPENSSH PRIVATE KEY-----               ← memory.secret.suspected (error)
import { DiagnosticCode, type Diagnostic } from '../../core/diagnostics.js';
import { range } from '../../core/position.js';
import { findSecretsInText, SecretLineMemo } from '../../core/secrets.js';
import type { Rule } from './index.js';

const SEVERITY = 'error';

/**
 * Findings per line text (core/secrets.ts): the editor re-validates an open note on every edit, and
 * a 60,000-line note then costs its changed lines, not every line (B46). Bounded.
 */
const MEMO = new SecretLineMemo();

export const secrets: Rule = {
  id: DiagnosticCode.suspectedSecret,
  codes: [DiagnosticCode.suspectedSecret],
  defaultSeverity: SEVERITY,
  docs:
    'Memory files are committed and shared like code, so credentials must not be in them. Reports private key blocks, ' +
    'common token formats and high-entropy secret assignments; `gitmem checkpoint` refuses them unless --force. A line ' +
    'holding `gitmem:allow-secret` is never reported.',
  check(doc) {
    const out: Diagnostic[] = [];
    for (const f of findSecretsInText(doc.path, doc.text, MEMO)) {
      const line = f.line - 1;
      const col = f.column - 1;
      out.push({
        path: doc.path,
        range: range(line, col, line, col + Math.max(4, f.preview.length - 1)),
        severity: SEVERITY,
        code: DiagnosticCode.suspectedSecret,
        message: `possible credential (${f.rule}: ${f.preview}); remove it or mark the line with gitmem:allow-secret`,
        data: { rule: f.rule },
      });
    }
    return out;
  },
};
