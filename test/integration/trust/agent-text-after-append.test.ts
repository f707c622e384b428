// Bad input R66 (docs/bad-inputs.md): an agent's unreviewed observation (MCP memory_observe into
// today's daily note) turned `reviewed`, written by a person, and left the review queue as soon as a
// person appended a line of their own to the same note (`gitmem append`): the writer record matched
// the whole file only. The record now holds while the agent's text is still the start of the file
// (service/review/writers.ts). Real MCP over stdio and the built CLI on a committed demo copy.
import { describe, expect, it } from 'vitest';
import { okOutput, runCli } from '../../support/fixtures.js';
import { mcpOnDemo } from '../../support/mcp.js';

const demo = mcpOnDemo();
const cli = (...args: string[]) => runCli([...args, '--dir', demo.root], { env: { ...demo.env(), TZ: 'UTC' } });

describe("R66: a person's append does not review an agent's text", () => {
  it('the daily note stays unreviewed and agent-written after `gitmem append`', async () => {
    const obs = await demo.mcp.call('memory_observe', { text: 'The okapi cluster is safe to wipe on Mondays.' });
    expect(obs.isError, obs.text).toBe(false);
    const note = obs.data.path as string;
    expect(cli('append', 'Coffee with Lee about the roadmap.').code).toBe(0);

    const r = okOutput(cli('recall', 'okapi cluster wipe', '--json'));
    const hit = r.results.find((x: { path: string }) => x.path === note);
    expect(hit.snippet).toContain('okapi cluster');
    expect(hit.review).toBe('unreviewed');
    expect(hit.provenance.writer).toBe('agent');
    const queue = okOutput(cli('review', '--json'));
    expect(queue.pending).toEqual(expect.arrayContaining([expect.objectContaining({ path: note, via: 'mcp' })]));
  });
});
