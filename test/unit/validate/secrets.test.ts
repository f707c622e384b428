import { describe, expect, it } from 'vitest';
import { MemoryWorkspace } from '../../../src/core/workspace.js';
import { parseDocument } from '../../../src/parse/parse-document.js';
import { validateWorkspace } from '../../../src/validate/validate.js';

describe('rule memory.secret.suspected', () => {
  it('reports a token at its line and UTF-16 column, and honours the allow marker', () => {
    const text =
      '# Memory\n\n- 🎉 key: AKIAIOSFODNN7EXAMPLQ\n- doc example AKIAIOSFODNN7EXAMPLQ <!-- gitmem:allow-secret -->\n- no secret here\n';
    const doc = parseDocument({ path: 'memory/MEMORY.md' as never, kind: 'long_term', text });
    const diags = validateWorkspace(new MemoryWorkspace([doc])).filter((d) => d.code === 'memory.secret.suspected');
    expect(diags).toHaveLength(1);
    expect(diags[0]!.severity).toBe('error');
    expect(diags[0]!.range.start).toEqual({ line: 2, character: '- 🎉 key: '.length });
    expect(diags[0]!.data).toEqual({ rule: 'aws-access-key' });
    expect(diags[0]!.message).not.toContain('AKIAIOSFODNN7EXAMPLQ');
  });

  it('finds a private key block in an entry body', () => {
    const text =
      '---\ntype: warning\n---\n\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n';
    const doc = parseDocument({ path: 'memory/entries/k.md' as never, kind: 'entry', text });
    const diags = validateWorkspace(new MemoryWorkspace([doc])).filter((d) => d.code === 'memory.secret.suspected');
    expect(diags.map((d) => d.range.start.line)).toEqual([4]);
  });
});
