// Bad input U23 (docs/bad-inputs.md): a tag holding a line break. memory_remember (and `remember --tag`)
// accepted `"a\nstatus: deleted"` and wrote it as a YAML block scalar: a tag no `tag:` filter can match,
// and validate found nothing wrong. The entry and playbook schemas now say a tag is one line without
// control characters (validate reports one that is not), the MCP tools refuse it by their schema, and
// remember refuses it as a usage error; nothing is written. MCP over real stdio, one workspace.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/fixtures.js';
import { mcpOnDemo } from '../../support/mcp.js';

const entries = () => readdirSync(join(ws.root, 'memory', 'entries')).sort();

const ws = mcpOnDemo();

describe('tags with a line break (U23)', { timeout: 60_000 }, () => {
  it('memory_remember refuses the tag by its schema; nothing is written', async () => {
    const before = entries();
    const r = await ws.mcp.call('memory_remember', { text: 'Tags forge test entry', tags: ['a\nstatus: deleted'] });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/usage/);
    expect(entries()).toEqual(before);
  });

  it('remember --tag refuses it as a usage error', () => {
    const before = entries();
    const r = runCli(['remember', 'Tags forge test entry', '--tag', 'a\u2028b', '--dir', ws.root, '--json'], {
      env: ws.env(),
    });
    expect(r.code).toBe(2);
    expect(r.json().error.code).toBe('usage');
    expect(entries()).toEqual(before);
  });

  it('validate reports such a tag written by hand', () => {
    writeFileSync(
      join(ws.root, 'memory', 'entries', 'hand.md'),
      '---\nid: hand\ntype: learning\ntags:\n  - |-\n    a\n    status: deleted\n---\n\nHand-written.\n',
    );
    const r = runCli(['validate', 'memory/entries/hand.md', '--dir', ws.root, '--json'], { env: ws.env() });
    const codes = (r.json().diagnostics as { code: string; path: string }[]).map((d) => d.code);
    expect(codes).toContain('memory.schema.invalid-value');
  });
});
