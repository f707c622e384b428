// Bad input R62 (docs/bad-inputs.md): a memory file over `limits.maxFileBytes` was left out of
// recall silently: `recall --json` (and MCP memory_recall) answered "no results" with nothing saying
// a file holding the word was not searched. The answer now carries one `warnings` line naming the
// file and its size (service/recall/skipped-files.ts), and the human output prints it on stderr;
// `index` and `validate` already said it. The built CLI on a bare workspace in a temp folder.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareWorkspace, noModelEnv, okOutput, requireBuiltCli, runCli, write } from '../../support/fixtures.js';

const NOTE = 'memory file is over limits.maxFileBytes (2000 bytes) and not searched: memory/big.md (';
let root = '';
let ws = '';

beforeAll(() => {
  requireBuiltCli();
  ({ root, ws } = bareWorkspace('entries', { model: { enabled: false }, limits: { maxFileBytes: 2000 } }));
  write(ws, 'memory/big.md', `# Big\n\n${'The quetzal ledger is rebuilt on Mondays.\n'.repeat(100)}`);
  write(ws, 'memory/small.md', '# Small\n\nThe okapi report ships on Fridays.\n');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('R62: a file over the size cap is said in the recall answer', () => {
  it('recall --json carries the warning, cold and after an index', () => {
    const env = noModelEnv(root);
    const cold = okOutput(runCli(['recall', 'quetzal', '--json', '--dir', ws], { env }));
    expect(cold.results).toEqual([]);
    expect(cold.warnings).toEqual([expect.stringContaining(`1 ${NOTE}`)]);
    expect(runCli(['index', '--dir', ws], { env }).code).toBe(0);
    const warm = okOutput(runCli(['recall', 'okapi', '--json', '--dir', ws], { env }));
    expect(warm.results.length).toBeGreaterThan(0);
    expect(warm.warnings).toEqual([expect.stringContaining(`1 ${NOTE}`)]);
  });

  it('the human output says it on stderr', () => {
    const r = runCli(['recall', 'quetzal', '--dir', ws], { env: noModelEnv(root) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`gitmem: note: 1 ${NOTE}`);
  });
});
