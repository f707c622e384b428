// Unit tests for tool-argument checking (validate/arguments.ts) over the MCP server's own tool
// schemas: a number written as a string is that number (R25, docs/bad-inputs.md); the schema still
// judges it, and anything that is not plainly a number stays an error.
import { describe, expect, it } from 'vitest';
import { TOOL_DEFINITIONS } from '../../../src/mcp/tools/index.js';
import { checkArguments } from '../../../src/validate/arguments.js';

const schemaOf = (name: string) => TOOL_DEFINITIONS.find((t) => t.name === name)!.inputSchema;
const check = (name: string, args: unknown) => checkArguments(name, schemaOf(name), args);

describe('checkArguments: a number in a string (R25)', () => {
  it('accepts "limit": "5" as the number 5', () => {
    expect(check('memory_recall', { query: 'x', limit: '5' })).toEqual({ query: 'x', limit: 5 });
    expect(check('memory_recall', { query: 'x', limit: ' 12 ' })).toEqual({ query: 'x', limit: 12 });
  });

  it('still applies the bounds and the type to the number', () => {
    expect(() => check('memory_recall', { query: 'x', limit: '500' })).toThrow(/limit must be ≤ 50/);
    expect(() => check('memory_recall', { query: 'x', limit: '2.5' })).toThrow(/limit must be integer/);
    for (const limit of ['', 'five', '5 results', '0x10', '1e3'])
      expect(() => check('memory_recall', { query: 'x', limit }), limit).toThrow(/limit must be integer/);
  });

  it("leaves a string argument a string, and does not change the caller's object", () => {
    const args = { query: '42', limit: '3' };
    expect(check('memory_recall', args)).toEqual({ query: '42', limit: 3 });
    expect(args).toEqual({ query: '42', limit: '3' });
  });
});
