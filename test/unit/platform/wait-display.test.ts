// The waiting display of `gitmem setup` / `npm run setup` while the model package downloads
// (platform/model-setup.ts ttyWaitDisplay): redrawn in place on a terminal, erased when the step
// ends, nothing on a stream that is not a terminal. Fake timers (the clock and setInterval); the
// stream is a recording stand-in.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ttyWaitDisplay } from '../../../src/platform/model-setup.js';

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, s: { isTTY, write: (t: string) => (writes.push(t), true) } as unknown as NodeJS.WriteStream };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('ttyWaitDisplay', () => {
  it('redraws "what … N s" on a terminal until the step ends, then erases its line', () => {
    const { writes, s } = stream(true);
    const done = ttyWaitDisplay(s, 20)('downloading the model package');
    vi.advanceTimersByTime(110);
    done();
    const n = writes.length;
    expect(n).toBeGreaterThanOrEqual(3);
    // One draw at the start and one every 20 ms of the 110, then the erase.
    expect(n).toBe(1 + 5 + 1);
    // eslint-disable-next-line no-control-regex -- the display ends each line with ESC [K
    for (const w of writes.slice(0, -1)) expect(w).toMatch(/^\r{1}downloading the model package … \d+ s\u001b\[K$/);
    expect(writes.at(-1)).toBe('\r\u001b[K');
    vi.advanceTimersByTime(60);
    expect(writes.length).toBe(n);
  });

  it('counts whole seconds since the step began', () => {
    const { writes, s } = stream(true);
    const done = ttyWaitDisplay(s, 1000)('downloading');
    vi.advanceTimersByTime(2500);
    done();
    expect(writes.slice(0, -1).map((w) => /… (\d+) s/.exec(w)?.[1])).toEqual(['0', '1', '2']);
  });

  it('writes nothing when the stream is not a terminal', () => {
    const { writes, s } = stream(false);
    const done = ttyWaitDisplay(s, 10)('downloading');
    vi.advanceTimersByTime(40);
    done();
    expect(writes).toEqual([]);
  });
});
