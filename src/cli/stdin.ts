// Reading a command's piped stdin, optionally bounded in bytes and in time. `gitmem hook prompt`
// bounds both (a prompt hook must never block the agent); `gitmem complete-task` reads all of it.
// deps: node only (cli layer).

/** Limits of {@link readStdin}; an omitted limit is no limit. */
export interface StdinLimits {
  /** Most bytes kept; the read stops once this many have arrived (a UTF-8 character may be cut). */
  readonly maxBytes?: number;
  /** Milliseconds the stream may stay open without ending; then what arrived is the text. */
  readonly waitMs?: number;
}

/**
 * Read `stream` (default `process.stdin`) to its end as UTF-8.
 * A bounded read (`maxBytes` or `waitMs` set) never fails: when a limit is reached, or the stream
 * errors, it stops listening, pauses the stream and resolves with what arrived. An unbounded read
 * resolves at the end of the stream and rejects with the stream's error.
 */
export function readStdin(limits: StdinLimits = {}, stream: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const maxBytes = limits.maxBytes ?? Infinity;
  const bounded = limits.maxBytes !== undefined || limits.waitMs !== undefined;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      if (timer) clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onLimit = () => {
      stream.pause();
      onEnd();
    };
    const onError = (e: Error) => {
      if (bounded) return onLimit();
      stop();
      reject(e);
    };
    const onData = (c: Buffer | string) => {
      const b = typeof c === 'string' ? Buffer.from(c) : c;
      if (size + b.length >= maxBytes) {
        chunks.push(b.subarray(0, maxBytes - size));
        size = maxBytes;
        return onLimit();
      }
      chunks.push(b);
      size += b.length;
    };
    if (limits.waitMs !== undefined) timer = setTimeout(onLimit, limits.waitMs);
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}
