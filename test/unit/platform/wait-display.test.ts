// The waiting display of `gitmem setup` / `npm run setup` while the model package downloads
// (platform/model-setup.ts ttyWaitDisplay): redrawn in place on a terminal, erased when the step
// ends, nothing on a stream that is not a terminal. Real timers; the stream is a recording stand-in.
import { describe, expect, it } from 'vitest';
import { ttyWaitDisplay } from '../../../src/platform/model-setup.js';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, s: { isTTY, write: (t: string) => (writes.push(t), true) } as unknown as NodeJS.WriteStream };
}

describe('ttyWaitDisplay', () => {
  it('redraws "what … N s" on a terminal until the step ends, then erases its line', async () => {
    const { writes, s } = stream(true);
    const done = ttyWaitDisplay(s, 20)('downloading the model package');
    await new Promise((r) => setTimeout(r, 110));
    done();
    const n = writes.length;
    expect(n).toBeGreaterThanOrEqual(3);
    // eslint-disable-next-line no-control-regex -- the display ends each line with ESC [K
    for (const w of writes.slice(0, -1)) expect(w).toMatch(/^\r{1}downloading the model package … \d+ s\u001b\[K$/);
    expect(writes.at(-1)).toBe('\r\u001b[K');
    await new Promise((r) => setTimeout(r, 60));
    expect(writes.length).toBe(n);
  });

  it('writes nothing when the stream is not a terminal', async () => {
    const { writes, s } = stream(false);
    const done = ttyWaitDisplay(s, 10)('downloading');
    await new Promise((r) => setTimeout(r, 40));
    done();
    expect(writes).toEqual([]);
  });
});
