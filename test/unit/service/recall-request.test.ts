// The one recall-request mapper (service/recall/request.ts): each entry point's request → the recall
// options it produced when the CLI, MCP, the language server and the host each mapped by hand.
import { describe, expect, it } from 'vitest';
import { recallOptionsOf } from '../../../src/service/recall/request.js';
import { recallArgs } from '../../../src/host/protocol.js';

describe('recallOptionsOf', () => {
  it('cli: the flags as commander parses them (singular names, --all, --now day)', () => {
    const o = {
      mode: 'hybrid',
      type: ['decision', 'rule'],
      tag: ['auth'],
      kind: ['entry'],
      file: 'src/**',
      since: '2024-01-01',
      until: '2024-12-31',
      limit: 5,
      all: true,
      history: true,
      explain: true,
      agent: 'claude',
      budget: 900,
      context: 2,
      now: '2024-06-01',
      // Flags recall itself does not take are left to the CLI.
      asOf: 'HEAD~1',
      lineage: true,
      reveal: true,
    };
    expect(recallOptionsOf('cli', o)).toEqual({
      mode: 'hybrid',
      types: ['decision', 'rule'],
      tags: ['auth'],
      kinds: ['entry'],
      file: 'src/**',
      since: '2024-01-01',
      until: '2024-12-31',
      limit: 5,
      includeHidden: true,
      history: true,
      explain: true,
      agent: 'claude',
      budget: 900,
      context: 2,
      now: new Date('2024-06-01T00:00:00Z'),
    });
    // Only the default mode: a person asked (no audience, no channel).
    expect(recallOptionsOf('cli', { mode: 'hybrid' })).toEqual({ mode: 'hybrid' });
  });

  it('mcp: an agent asked; a budgeted block is injected; fields outside the tool schema are left out', () => {
    const a = {
      query: 'q',
      mode: 'keyword',
      limit: 3,
      types: ['fact'],
      tags: ['x'],
      kinds: ['daily'],
      file: 'a.ts',
      since: '2024-01-01',
      until: '2024-02-01',
      all: true,
      history: true,
      context: 1,
      explain: true,
      agent: 'someone',
    };
    expect(recallOptionsOf('mcp', a)).toEqual({
      mode: 'keyword',
      limit: 3,
      types: ['fact'],
      tags: ['x'],
      kinds: ['daily'],
      file: 'a.ts',
      since: '2024-01-01',
      until: '2024-02-01',
      includeHidden: true,
      history: true,
      context: 1,
      audience: 'agent',
      channel: 'mcp',
    });
    expect(recallOptionsOf('mcp', { query: 'q', budget: 500 })).toEqual({
      budget: 500,
      audience: 'injected',
      channel: 'mcp',
    });
  });

  it('lsp: a person unless forAgent; since/until only as strings; no CLI-only fields', () => {
    const p = { query: 'q', mode: 'vector', types: ['rule'], since: 20240101, until: '2024-03-01', explain: true };
    expect(recallOptionsOf('lsp', p)).toEqual({ mode: 'vector', types: ['rule'], until: '2024-03-01' });
    expect(recallOptionsOf('lsp', { query: 'q', forAgent: true, limit: 7 })).toEqual({
      limit: 7,
      audience: 'agent',
      channel: 'lsp',
    });
  });

  it('host: the options a CLI call sent over the socket come back as it built them', () => {
    const sent = recallOptionsOf('cli', {
      mode: 'keyword',
      type: ['rule'],
      all: true,
      explain: true,
      budget: 300,
      now: '2025-02-03',
    });
    const wire = JSON.parse(JSON.stringify(recallArgs('q', sent as Record<string, unknown>))) as {
      options: Record<string, unknown>;
    };
    expect(recallOptionsOf('host', wire.options)).toEqual(sent);
    // The JSON-safe fields other entry points send (hook, context) pass through as well.
    expect(
      recallOptionsOf('host', { audience: 'injected', channel: 'hook', provenance: false, snippetChars: 200 }),
    ).toEqual({ audience: 'injected', channel: 'hook', provenance: false, snippetChars: 200 });
    // A `now` that is not a date is left out; so is a field of the wrong type.
    expect(recallOptionsOf('host', { now: 'soon', limit: '5', mode: 'hybrid' })).toEqual({ mode: 'hybrid' });
  });
});
