// The one stdin reader of the CLI (src/cli/stdin.ts), with the limits each command chooses:
// `gitmem hook prompt` bounds bytes and time (a prompt hook must never block), `gitmem complete-task`
// reads everything. Streams are real node streams (PassThrough) standing in for process.stdin.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readStdin } from '../../../src/cli/stdin.js';

const MiB = 1024 * 1024;

describe('readStdin, unbounded (complete-task)', () => {
  it('reads every chunk to the end of the stream, more than the hook would keep', async () => {
    const s = new PassThrough();
    const read = readStdin({}, s);
    const part = Buffer.alloc(MiB, 'a');
    s.write(part);
    s.write(part);
    s.end('{"goal":"x"}');
    const text = await read;
    expect(text.length).toBe(2 * MiB + 12);
    expect(text.endsWith('{"goal":"x"}')).toBe(true);
  });

  it('decodes UTF-8 split across chunks and string chunks', async () => {
    const s = new PassThrough();
    const read = readStdin({}, s);
    const bytes = Buffer.from('grüße 🚀');
    s.write(bytes.subarray(0, 3));
    s.write(bytes.subarray(3));
    s.end();
    expect(await read).toBe('grüße 🚀');
  });

  it('rejects with the stream error', async () => {
    const s = new PassThrough();
    const read = readStdin({}, s);
    s.write('partial');
    s.destroy(new Error('EIO: read failed'));
    await expect(read).rejects.toThrow('EIO: read failed');
  });
});

describe('readStdin, bounded (hook prompt)', () => {
  it('keeps at most maxBytes and stops reading, though the stream is still open', async () => {
    const s = new PassThrough();
    const read = readStdin({ maxBytes: 10, waitMs: 60_000 }, s);
    s.write('0123456');
    s.write('789abcdef');
    expect(await read).toBe('0123456789');
    expect(s.listenerCount('data')).toBe(0);
    expect(s.isPaused()).toBe(true);
    s.destroy();
  });

  it('answers with what arrived when the stream stays open past waitMs', async () => {
    const s = new PassThrough();
    const read = readStdin({ maxBytes: MiB, waitMs: 50 }, s);
    s.write('{"prompt": "webhook retries"}');
    // Never ended: the wait bound, not an end event, resolves the read.
    expect(await read).toBe('{"prompt": "webhook retries"}');
    expect(s.listenerCount('data')).toBe(0);
    s.destroy();
  });

  it('resolves at the end of a short stream without waiting for the bound', async () => {
    const s = new PassThrough();
    const read = readStdin({ maxBytes: MiB, waitMs: 60_000 }, s);
    s.end('plain text prompt');
    expect(await read).toBe('plain text prompt');
  });

  it('resolves with what arrived when the stream errors (a hook never fails on stdin)', async () => {
    const s = new PassThrough();
    const read = readStdin({ maxBytes: MiB, waitMs: 60_000 }, s);
    s.write('half a prompt');
    await new Promise((r) => setImmediate(r));
    s.destroy(new Error('EPIPE'));
    expect(await read).toBe('half a prompt');
  });
});
