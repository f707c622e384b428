// The machine shape of diagnostics (`validate --json`, `state validate --json`, MCP memory_validate):
// one owner, src/core/diagnostics.ts diagnosticReport.
import { describe, expect, it } from 'vitest';
import { DiagnosticCode, diagnosticReport, type Diagnostic } from '../../../src/core/diagnostics.js';
import type { RelPath } from '../../../src/core/paths.js';
import { range } from '../../../src/core/position.js';

describe('diagnosticReport', () => {
  it('keeps exactly path, range, severity, code and message, in order, and drops data', () => {
    const d: Diagnostic = {
      path: 'memory/entries/a.md' as RelPath,
      range: range(1, 2, 1, 9),
      severity: 'error',
      code: DiagnosticCode.duplicateId,
      message: 'id "a" is also used by memory/entries/b.md',
      data: { id: 'a', others: ['memory/entries/b.md'] },
    };
    const w: Diagnostic = { ...d, path: 'memory/MEMORY.md' as RelPath, severity: 'warning', data: undefined };
    const r = diagnosticReport([d, w]);
    expect(r.diagnostics.map((x) => Object.keys(x))).toEqual([
      ['path', 'range', 'severity', 'code', 'message'],
      ['path', 'range', 'severity', 'code', 'message'],
    ]);
    expect(r.diagnostics[0]).toEqual({
      path: 'memory/entries/a.md',
      range: range(1, 2, 1, 9),
      severity: 'error',
      code: DiagnosticCode.duplicateId,
      message: 'id "a" is also used by memory/entries/b.md',
    });
    expect(r.diagnostics[1]!.severity).toBe('warning');
    expect(diagnosticReport([])).toEqual({ diagnostics: [] });
  });
});
