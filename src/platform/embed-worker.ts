// Worker-thread entry (bundled to dist/embed-worker.js): runs the ONNX embedding session off the
// main thread, so a long re-embed never stalls the language server's hover and completion (the
// native session.run blocks the thread that calls it). Protocol (see worker-embedder.ts):
// `hello` {protocol, fingerprint} on start; then `embed` {job, texts} → `vectors` {job, data}
// (all vectors in one transferred Float32Array, `dims` floats each, in order) or `error`
// {job, error: MemoryError JSON}. deps: indexes, core, node:worker_threads.
import { parentPort, workerData } from 'node:worker_threads';
import { isMemoryError } from '../core/errors.js';
import { createOnnxEmbedder, type OnnxEmbedderOptions } from '../indexes/embed/onnx-embedder.js';
import { EMBED_WORKER_PROTOCOL, type EmbedWorkerIn, type EmbedWorkerOut } from './worker-embedder.js';

const errorJson = (e: unknown) =>
  isMemoryError(e)
    ? e.toJSON()
    : {
        code: 'embedder.unavailable' as const,
        message: (e as Error)?.message ?? String(e),
        data: { reason: 'runtime-failed' },
      };

if (parentPort) {
  const port = parentPort;
  const send = (m: EmbedWorkerOut, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);
  const opening = createOnnxEmbedder(workerData as OnnxEmbedderOptions);
  opening.then(
    (e) => send({ op: 'hello', protocol: EMBED_WORKER_PROTOCOL, fingerprint: e.fingerprint }),
    (err) => send({ op: 'hello', protocol: EMBED_WORKER_PROTOCOL, fingerprint: '', error: errorJson(err) }),
  );
  // One job at a time, in arrival order (the host also sends one at a time).
  let queue: Promise<unknown> = Promise.resolve();
  port.on('message', (m: EmbedWorkerIn) => {
    if (m.op !== 'embed') return;
    queue = queue.then(async () => {
      try {
        const embedder = await opening;
        const vectors = await embedder.embed(m.texts);
        const data = new Float32Array(vectors.length * embedder.dims);
        vectors.forEach((v, i) => data.set(v, i * embedder.dims));
        send({ op: 'vectors', job: m.job, data }, [data.buffer as ArrayBuffer]);
      } catch (e) {
        send({ op: 'error', job: m.job, error: errorJson(e) });
      }
    });
  });
}
