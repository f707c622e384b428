// Stdout belongs to the protocol (B28). Importing this module first thing sends every other write
// to stdout (console.*, stray process.stdout.write from any dependency) to stderr, and keeps the
// real stdout for the message writer alone. deps: node only.
import { Writable } from 'node:stream';

type Write = (chunk: string | Uint8Array, ...rest: unknown[]) => boolean;

let protocolOut: Writable | undefined;

/** Install the guard (idempotent). @returns the stream that writes to the real stdout. */
export function guardStdout(): Writable {
  if (protocolOut) return protocolOut;
  const realWrite = process.stdout.write.bind(process.stdout) as Write;
  protocolOut = new Writable({
    write(chunk: Buffer, _enc, cb) {
      realWrite(chunk, (err?: Error | null) => cb(err ?? null));
    },
  });
  const toStderr: Write = (chunk, ...rest) => (process.stderr.write as Write)(chunk, ...rest);
  process.stdout.write = toStderr as typeof process.stdout.write;
  for (const k of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir'] as const) {
    console[k] = (...args: unknown[]) => {
      process.stderr.write(`${args.map((a) => (typeof a === 'string' ? a : safeInspect(a))).join(' ')}\n`);
    };
  }
  return protocolOut;
}

function safeInspect(v: unknown): string {
  try {
    return v instanceof Error ? (v.stack ?? v.message) : JSON.stringify(v);
  } catch {
    return String(v);
  }
}

guardStdout();
