// The host's request queue (src/host/server.ts) with fake handlers over a real Unix socket: a handler
// that stalls or is slow is declined at the request deadline and never holds the calls behind it;
// calls run one at a time; a full queue says busy and frees up once deadlines pass. The same with a
// real stopped host process: test/integration/host/host-hardening.test.ts. Bad-input case: H03.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { askHost, type AskResult } from '../../../src/host/client.js';
import { hostEndpoint, type HostEndpoint } from '../../../src/host/endpoint.js';
import { HOST_PROTOCOL_VERSION, LineReader, type HostReply, type HostRequest } from '../../../src/host/protocol.js';
import { startHostServer } from '../../../src/host/server.js';

const dirs: string[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of closers.splice(0)) await c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function endpoint(): HostEndpoint {
  const d = realpathSync(mkdtempSync(join(tmpdir(), 'gm-hq-')));
  dirs.push(d);
  return hostEndpoint(join(d, 'state'))!;
}

const info = { kind: 'watch' as const, pid: process.pid, root: '/ws', declines: null };
const ok = (result: unknown): HostReply => ({ v: HOST_PROTOCOL_VERSION, ok: true, host: info, result });
/** A one-shot event: `fired` resolves once `fire()` is called. */
function signal() {
  let fire!: () => void;
  const fired = new Promise<void>((r) => (fire = r));
  return { fired, fire };
}

async function serve(ep: HostEndpoint, handle: (req: HostRequest) => Promise<HostReply>, extra = {}) {
  const s = await startHostServer({ endpoint: ep, handle, requestTimeoutMs: 300, ...extra });
  if ('refused' in s) throw new Error(s.refused);
  closers.push(() => s.close());
  return s;
}

const recall = (ep: HostEndpoint, query: string, timeoutMs = 5000) =>
  askHost(ep, { op: 'recall', root: '/ws', args: { query } }, { timeoutMs });
/**
 * Resolves once the host has read `times` requests whose query is `query` (the event: a line reader
 * returned the request line; the server queues the request in the same turn). Spies on every
 * LineReader of this process (the client's reads of replies carry no query and are skipped).
 */
function arrivals(): (query: string, times?: number) => Promise<void> {
  const counts = new Map<string, number>();
  const waiters: { query: string; times: number; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters])
      if ((counts.get(w.query) ?? 0) >= w.times) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  };
  const push = LineReader.prototype.push;
  vi.spyOn(LineReader.prototype, 'push').mockImplementation(function (this: LineReader, chunk: Buffer) {
    const line = push.call(this, chunk);
    let query: unknown;
    try {
      query = line === undefined ? undefined : (JSON.parse(line) as { args?: { query?: unknown } }).args?.query;
    } catch {
      query = undefined; // not a request line
    }
    if (typeof query === 'string') {
      counts.set(query, (counts.get(query) ?? 0) + 1);
      check();
    }
    return line;
  });
  return (query, times = 1) =>
    new Promise<void>((resolve) => {
      waiters.push({ query, times, resolve });
      check();
    });
}

const declined = (r: AskResult) => ('reply' in r && !r.reply.ok && 'declined' in r.reply ? r.reply.declined : null);
const answer = (r: AskResult) => ('reply' in r && r.reply.ok ? r.reply.result : undefined);

describe('host request queue', () => {
  it('a handler that never settles is declined at its deadline and the call behind it is answered', async () => {
    const ep = endpoint();
    const stalling = signal();
    await serve(ep, (req) => {
      if (req.args.query !== 'stall') return Promise.resolve(ok(req.args.query));
      stalling.fire();
      return new Promise<HostReply>(() => undefined);
    });
    const t0 = performance.now();
    // 'next' is sent once the handler runs 'stall', so it waits behind it.
    const [stalled, behind] = await Promise.all([recall(ep, 'stall'), stalling.fired.then(() => recall(ep, 'next'))]);
    expect(declined(stalled)).toMatch(/did not answer within 300 ms/);
    expect(answer(behind)).toBe('next');
    // Both settled on the host's deadline, long before the clients' own 5 s bound.
    expect(performance.now() - t0).toBeLessThan(4000);
    // And the queue keeps working afterwards.
    expect(answer(await recall(ep, 'later'))).toBe('later');
  });

  it('a slow handler is declined at its deadline, its late answer dropped, and the queue moves on', async () => {
    const ep = endpoint();
    let running = 0;
    let maxRunning = 0;
    const slowStarted = signal();
    const slowReleased = signal();
    const slowFinished = signal();
    await serve(ep, async (req) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      try {
        // The slow handler's own work lasts until the test releases it, past the host's 300 ms
        // deadline (what is under test); the others answer after one turn of the event loop.
        if (req.args.query === 'slow') {
          slowStarted.fire();
          await slowReleased.fired;
        } else await setImmediate();
        return ok(req.args.query);
      } finally {
        running--;
        if (req.args.query === 'slow') slowFinished.fire();
      }
    });
    const slow = recall(ep, 'slow');
    await slowStarted.fired;
    const fast = await Promise.all(['a', 'b', 'c'].map((q) => recall(ep, q)));
    expect(declined(await slow)).toMatch(/did not answer within 300 ms/);
    // Queued behind the slow one, each had its own deadline from arrival: answered, or declined on time.
    for (const r of fast) expect(answer(r) !== undefined || /did not answer/.test(declined(r) ?? '')).toBe(true);
    slowReleased.fire();
    await slowFinished.fired; // the slow handler finishes; its answer goes nowhere
    const r = await Promise.all(['x', 'y'].map((q) => recall(ep, q)));
    expect(r.map(answer)).toEqual(['x', 'y']);
    // Only a call that moved on past a stalled one ran beside it.
    expect(maxRunning).toBeGreaterThan(1);
  });

  it('calls that finish in time run one at a time, in arrival order', async () => {
    const ep = endpoint();
    let running = 0;
    let maxRunning = 0;
    const order: unknown[] = [];
    const arrived = arrivals();
    // Every handler holds until all five calls have reached the host: a queue that let a call run
    // beside another would then show two (or five) running at once.
    const allArrived = signal();
    await serve(
      ep,
      async (req) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await allArrived.fired;
        order.push(req.args.query);
        running--;
        return ok(req.args.query);
      },
      { requestTimeoutMs: 3000 },
    );
    const qs = ['q1', 'q2', 'q3', 'q4', 'q5'];
    const r = [];
    for (const q of qs) {
      r.push(recall(ep, q));
      await arrived(q); // the next call is sent once the host has read this one: the arrival order is qs
    }
    allArrived.fire();
    expect((await Promise.all(r)).map(answer)).toEqual(qs);
    expect(maxRunning).toBe(1);
    expect(order).toEqual(qs);
  });

  it('a queue full of stalled calls says busy, then frees up once their deadlines pass', async () => {
    const ep = endpoint();
    const arrived = arrivals();
    await serve(
      ep,
      (req) => (req.args.query === 'stall' ? new Promise<HostReply>(() => undefined) : Promise.resolve(ok('free'))),
      {
        maxQueued: 2,
      },
    );
    const stalled = [recall(ep, 'stall'), recall(ep, 'stall')];
    await arrived('stall', 2); // both have reached the host and fill its queue
    const busy = await recall(ep, 'next');
    expect(declined(busy)).toMatch(/busy/);
    for (const s of await Promise.all(stalled)) expect(declined(s)).toMatch(/did not answer/);
    expect(answer(await recall(ep, 'next'))).toBe('free');
  });

  it('the client gives up on its own bound when even the host deadline is longer', async () => {
    const ep = endpoint();
    await serve(ep, () => new Promise<HostReply>(() => undefined), { requestTimeoutMs: 10_000 });
    const t0 = performance.now();
    const r = await recall(ep, 'q', 250);
    expect('fallback' in r && r.fallback).toMatch(/did not answer within 250 ms/);
    expect(performance.now() - t0).toBeLessThan(3000);
  });
});
