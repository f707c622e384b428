// The shipped 4-bit graph rewritten as a plain fp32 graph, in memory, for bulk embedding: every
// com.microsoft MatMulNBits node (4-bit weights in blocks along K, one fp32 scale per block, zero
// point 8) becomes an ONNX MatMul over its dequantised [K, N] fp32 weights, and every tensor stored
// in the external `.onnx_data` file is inlined, so the result loads from one buffer. The weights are
// the same numbers the 4-bit kernel multiplies by; only the activations are no longer rounded to
// int8, so the vectors stay in the shipped graph's space (cosine ≥ 0.999 per text: see
// test/integration/embed/fp32-graph.test.ts). Every other field of the model is copied byte for byte.
// Reads and writes the protobuf wire format with protobufjs (Reader/Writer only, no schema).
// deps: protobufjs. Pure: the caller reads the files.
import pb from 'protobufjs/minimal.js';
import { MemoryError } from '../../core/errors.js';

/** One field of a protobuf message: number, wire type, value (bytes for length-delimited) and its raw encoding. */
interface Field {
  readonly f: number;
  readonly w: number;
  readonly bytes?: Uint8Array;
  readonly num?: number;
  readonly raw: Uint8Array;
}

function fields(buf: Uint8Array): Field[] {
  const r = pb.Reader.create(buf);
  const out: Field[] = [];
  while (r.pos < r.len) {
    const start = r.pos;
    const tag = r.uint32();
    const f = tag >>> 3;
    const w = tag & 7;
    let bytes: Uint8Array | undefined;
    let num: number | undefined;
    if (w === 2) bytes = r.bytes();
    else if (w === 0) num = Number(r.int64().toString());
    else r.skipType(w);
    out.push({
      f,
      w,
      ...(bytes ? { bytes } : {}),
      ...(num !== undefined ? { num } : {}),
      raw: buf.subarray(start, r.pos),
    });
  }
  return out;
}

const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b ?? new Uint8Array());
const field = (fs: Field[], f: number) => fs.find((x) => x.f === f);
const concat = (parts: readonly Uint8Array[]) => Buffer.concat(parts as Uint8Array[]);
const delimited = (f: number, payload: Uint8Array) =>
  concat([
    pb.Writer.create()
      .uint32((f << 3) | 2)
      .uint32(payload.length)
      .finish(),
    payload,
  ]);
const varint = (f: number, n: number) =>
  pb.Writer.create()
    .uint32(f << 3)
    .int64(n)
    .finish();
const str = (f: number, s: string) => delimited(f, Buffer.from(s, 'utf8'));

// ONNX field numbers (onnx.proto): ModelProto.graph 7; GraphProto.node 1, initializer 5;
// NodeProto input 1, output 2, name 3, op_type 4, attribute 5, domain 7; AttributeProto name 1,
// i 3; TensorProto dims 1, data_type 2, name 8, raw_data 9, external_data 13, data_location 14;
// StringStringEntryProto key 1, value 2. Data type 1 = FLOAT.
const bad = (message: string) =>
  new MemoryError('embedder.unavailable', `cannot derive the fp32 graph: ${message}`, {
    data: { reason: 'model-invalid' },
  });

/**
 * Rewrite a graph with 4-bit MatMulNBits nodes into an fp32 graph with MatMul nodes.
 * @param graph the `.onnx` file's bytes.
 * @param externalData the bytes of the external data file the graph's tensors point into.
 * @returns a self-contained ONNX model (no external data), about 90 MB for all-MiniLM-L6-v2.
 * @throws MemoryError `embedder.unavailable` (`model-invalid`) for a graph this cannot rewrite
 *   (other bit widths, zero points, group indices, a bias input, data outside the file).
 */
export function deriveFp32Graph(graph: Uint8Array, externalData: Uint8Array): Uint8Array {
  const model = fields(graph);
  const g = field(model, 7)?.bytes;
  if (!g) throw bad('no graph');
  const parts = fields(g);
  const tensors = new Map<string, Field[]>();
  for (const p of parts) {
    if (p.f !== 5) continue;
    const tf = fields(p.bytes!);
    tensors.set(text(field(tf, 8)?.bytes), tf);
  }
  const data = (tf: Field[]): Uint8Array => {
    const raw = field(tf, 9);
    if (raw) return raw.bytes!;
    const ext = new Map(
      tf
        .filter((x) => x.f === 13)
        .map((x) => {
          const e = fields(x.bytes!);
          return [text(field(e, 1)?.bytes), text(field(e, 2)?.bytes)] as const;
        }),
    );
    const offset = Number(ext.get('offset') ?? 0);
    const length = Number(ext.get('length') ?? NaN);
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset + length > externalData.length)
      throw bad(`tensor ${text(field(tf, 8)?.bytes)} points outside the data file`);
    return externalData.subarray(offset, offset + length);
  };
  const replaced = new Set<string>();
  const added: Uint8Array[] = [];
  const nodes = parts.map((p): Uint8Array | Field => {
    if (p.f !== 1) return p;
    const nf = fields(p.bytes!);
    if (text(field(nf, 4)?.bytes) !== 'MatMulNBits') return p.raw;
    const inputs = nf.filter((x) => x.f === 1).map((x) => text(x.bytes));
    const attrs = new Map(
      nf
        .filter((x) => x.f === 5)
        .map((a) => {
          const af = fields(a.bytes!);
          return [text(field(af, 1)?.bytes), field(af, 3)?.num ?? 0] as const;
        }),
    );
    const K = attrs.get('K') ?? 0;
    const N = attrs.get('N') ?? 0;
    const bs = attrs.get('block_size') ?? 0;
    if (attrs.get('bits') !== 4 || inputs.length !== 3 || !K || !N || bs < 2 || bs % 2)
      throw bad(`MatMulNBits ${inputs[1]}: only 4-bit weights with scales and no zero points are supported`);
    const q = tensors.get(inputs[1]!);
    const s = tensors.get(inputs[2]!);
    if (!q || !s) throw bad(`MatMulNBits ${inputs[1]}: weights are not initialisers`);
    const packed = data(q);
    const sb = data(s);
    const blocks = Math.ceil(K / bs);
    const blob = bs / 2;
    if (packed.length !== N * blocks * blob || sb.length !== N * blocks * 4)
      throw bad(`MatMulNBits ${inputs[1]}: weight sizes do not match K=${K} N=${N} block_size=${bs}`);
    const scales = new Float32Array(sb.buffer.slice(sb.byteOffset, sb.byteOffset + sb.byteLength));
    const w = new Float32Array(K * N);
    for (let n = 0; n < N; n++) {
      for (let b = 0; b < blocks; b++) {
        const scale = scales[n * blocks + b]!;
        const base = (n * blocks + b) * blob;
        for (let j = 0, k = b * bs; j < bs && k < K; j++, k++) {
          const byte = packed[base + (j >> 1)]!;
          w[k * N + n] = (((j & 1) === 1 ? byte >> 4 : byte & 15) - 8) * scale;
        }
      }
    }
    replaced.add(inputs[1]!).add(inputs[2]!);
    const name = `${inputs[1]}.fp32`;
    added.push(
      delimited(
        5,
        concat([varint(1, K), varint(1, N), varint(2, 1), str(8, name), delimited(9, new Uint8Array(w.buffer))]),
      ),
    );
    const outputs = nf.filter((x) => x.f === 2).map((x) => str(2, text(x.bytes)));
    const nodeName = nf.filter((x) => x.f === 3).map((x) => x.raw);
    return delimited(1, concat([str(1, inputs[0]!), str(1, name), ...outputs, ...nodeName, str(4, 'MatMul')]));
  });
  const body = nodes.map((p) => {
    if (!('f' in p)) return p;
    if (p.f !== 5) return p.raw;
    const tf = fields(p.bytes!);
    if (replaced.has(text(field(tf, 8)?.bytes))) return new Uint8Array();
    if (!tf.some((x) => x.f === 13)) return p.raw;
    const bytes = data(tf);
    return delimited(5, concat([...tf.filter((x) => x.f !== 13 && x.f !== 14).map((x) => x.raw), delimited(9, bytes)]));
  });
  if (replaced.size === 0) throw bad('the graph has no MatMulNBits node');
  const newGraph = concat([...body, ...added]);
  return concat(model.map((x) => (x.f === 7 ? delimited(7, newGraph) : x.raw)));
}
