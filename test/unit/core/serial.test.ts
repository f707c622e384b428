// Unit tests for the one serial queue (core/serial.ts): tasks run one at a time in order, a failed
// task does not stop the next, idle waits for everything handed in.
import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../../src/core/serial.js';

describe('SerialQueue', () => {
  it('runs tasks one at a time, in order, and a rejection reaches only its caller', async () => {
    const q = new SerialQueue();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const a = q.run(async () => {
      log.push('a start');
      await gate;
      log.push('a end');
      return 1;
    });
    const b = q.run(() => {
      log.push('b');
      throw new Error('b failed');
    });
    const c = q.run(async () => {
      log.push('c');
      return 3;
    });
    expect(q.size).toBe(3);
    await Promise.resolve();
    expect(log).toEqual(['a start']);
    release();
    expect(await a).toBe(1);
    await expect(b).rejects.toThrow('b failed');
    expect(await c).toBe(3);
    expect(log).toEqual(['a start', 'a end', 'b', 'c']);
    expect(q.busy).toBe(false);
  });

  it('idle resolves once every task handed in, including ones added meanwhile, has settled', async () => {
    const q = new SerialQueue();
    const done: number[] = [];
    void q.run(async () => {
      done.push(1);
      void q.run(async () => void done.push(2));
    });
    await q.idle();
    expect(done).toEqual([1, 2]);
    expect(q.size).toBe(0);
  });
});
