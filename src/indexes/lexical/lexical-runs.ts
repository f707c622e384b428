// A keyword segment built in runs (issue 46): a full build folds a bounded number of documents into a
// SegmentAccumulator, writes that run to a file (encodeRun) and starts the next; at the end the runs
// are merged term by term, reading each run front to back through a small buffer, into the final
// segment file, written at byte offsets (mergeRuns). Memory follows one run and the vocabularies'
// id maps, not the workspace. The merged bytes equal encodeSegment of one accumulator fed every
// document in the same order (test/unit/indexes/lexical-runs.test.ts): terms and vocabularies are
// the sorted unions, postings concatenate in run order (document ids ascend), per-document columns
// concatenate, and the statistics are sums. Pure: I/O through RangedFile and the writers passed in.
// deps: core (errors, ports types), indexes (lexical-codec, lexical-segment).
import { MemoryError } from '../../core/errors.js';
import type { RangedFile } from '../../core/ports.js';
import { segmentLayout } from './lexical-codec.js';
import { Column, Cursor, Grow, cmp, mergeKeys, utf8, type PositionalWriter } from './lexical-run-io.js';
import { corrupt, NF, type SegmentData } from './lexical-segment.js';

export type { PositionalWriter } from './lexical-run-io.js';

/** Version of the run file format (temporary files of one build; never loaded as an index). */
export const RUN_VERSION = 1;
const RUN_MAGIC = 0x4e524d47; // "GMRN" read as a little-endian u32
/** Header: magic, version, n, T, R, P, RI, refs bytes (u32 each), totalLen (NF f64), 6 region starts (u32). */
const RUN_HEADER = 8 * 4 + NF * 8 + 6 * 4;

/** Bytes written one after another. */
export interface ByteWriter {
  write(bytes: Uint8Array): void;
}

/**
 * Write one run: the segment data of a bounded batch of documents (a SegmentAccumulator's), as
 * regions read front to back by {@link mergeRuns}: terms; per term its postings (count, ids, field
 * term frequencies); raw vocabulary (token, stem or '' when the same, documents holding it); per
 * document its ref, field lengths and raw ids; refs in sorted order with their document ids.
 */
export function encodeRun(d: SegmentData, out: ByteWriter): void {
  const n = d.refs.length;
  const T = d.terms.length;
  const R = d.raw.length;
  const terms = new Grow();
  for (let t = 0; t < T; t++) terms.str(d.terms.at(t));
  const post = new Grow();
  for (let t = 0; t < T; t++) {
    const a = d.postStart[t]!;
    const b = d.postStart[t + 1]!;
    post.u32(b - a);
    for (let p = a; p < b; p++) post.u32(d.postIds[p]!);
    for (let p = a * NF; p < b * NF; p++) post.u16(d.postTf[p]!);
  }
  const rawDf = new Int32Array(R);
  for (let i = 0; i < d.rawIds.length; i++) rawDf[d.rawIds[i]!]!++;
  const raw = new Grow();
  for (let r = 0; r < R; r++) {
    const token = d.raw.at(r);
    const stem = d.rawStem.at(r);
    raw.str(token);
    raw.str(stem === token ? '' : stem);
    raw.u32(rawDf[r]!);
  }
  const docs = new Grow();
  const totalLen = new Float64Array(NF);
  let refsBytes = 0;
  const refs = d.refs.toArray();
  for (let id = 0; id < n; id++) {
    refsBytes += docs.str(refs[id]!);
    for (let f = 0; f < NF; f++) {
      docs.u32(d.docLen[id * NF + f]!);
      totalLen[f]! += d.docLen[id * NF + f]!;
    }
    const a = d.rawStart[id]!;
    const b = d.rawStart[id + 1]!;
    docs.u32(b - a);
    for (let q = a; q < b; q++) docs.u32(d.rawIds[q]!);
  }
  const order = Int32Array.from(refs.keys()).sort((a, b) => cmp(refs[a]!, refs[b]!));
  const sorted = new Grow();
  for (const id of order) {
    sorted.u32(id);
    sorted.str(refs[id]!);
  }
  const head = new DataView(new ArrayBuffer(RUN_HEADER));
  [RUN_MAGIC, RUN_VERSION, n, T, R, d.postIds.length, d.rawIds.length, refsBytes].forEach((v, i) =>
    head.setUint32(i * 4, v, true),
  );
  totalLen.forEach((v, f) => head.setFloat64(32 + f * 8, v, true));
  let at = RUN_HEADER;
  const regions = [terms, post, raw, docs, sorted];
  regions.forEach((g, i) => {
    head.setUint32(32 + NF * 8 + i * 4, at, true);
    at += g.n;
  });
  head.setUint32(32 + NF * 8 + 5 * 4, at, true);
  out.write(new Uint8Array(head.buffer));
  for (const g of regions) out.write(g.view());
}

interface RunHead {
  readonly n: number;
  readonly T: number;
  readonly R: number;
  readonly P: number;
  readonly RI: number;
  readonly refsBytes: number;
  readonly totalLen: Float64Array;
  /** Region starts: terms, postings, raw, docs, sorted refs, end. */
  readonly at: readonly number[];
}

function readHead(file: RangedFile): RunHead {
  const b = new Uint8Array(RUN_HEADER);
  if (file.read(b, 0) !== RUN_HEADER) throw corrupt('build run too short');
  const dv = new DataView(b.buffer);
  const u = (i: number) => dv.getUint32(i * 4, true);
  if (u(0) !== RUN_MAGIC || u(1) !== RUN_VERSION) throw corrupt('not a build run of this version');
  const at = Array.from({ length: 6 }, (_, i) => dv.getUint32(32 + NF * 8 + i * 4, true));
  if (at[5] !== file.size) throw corrupt('build run length does not match');
  return {
    n: u(2),
    T: u(3),
    R: u(4),
    P: u(5),
    RI: u(6),
    refsBytes: u(7),
    totalLen: Float64Array.from({ length: NF }, (_, f) => dv.getFloat64(32 + f * 8, true)),
    at,
  };
}

/** Sorted-string region reader: the key strings of every run, read on demand. */
function keysOf(cursors: readonly Cursor[], rest?: (c: Cursor, k: number) => void): (k: number) => string | undefined {
  return (k) => {
    const c = cursors[k]!;
    if (c.done) return undefined;
    const s = c.str();
    rest?.(c, k);
    return s;
  };
}

/**
 * Merge the runs (in document order: run 0's documents first) into one segment written through
 * `out` at byte offsets from 0. @returns its byte length.
 * @throws MemoryError `internal` when a ref occurs in two runs; `index.corrupt` on a damaged run.
 */
export function mergeRuns(files: readonly RangedFile[], out: PositionalWriter): number {
  const heads = files.map(readHead);
  const K = files.length;
  const sum = (f: (h: RunHead) => number) => heads.reduce((s, h) => s + f(h), 0);
  const n = sum((h) => h.n);
  const P = sum((h) => h.P);
  const RI = sum((h) => h.RI);
  /** First merged document id of each run. */
  const base: number[] = [];
  heads.reduce((at, h) => (base.push(at), at + h.n), 0);
  const region = (k: number, i: number) => new Cursor(files[k]!, heads[k]!.at[i]!, heads[k]!.at[i + 1]!);
  // Pass 1: sizes of the merged vocabularies, and each run's raw id → merged raw id.
  let T = 0;
  let termsBytes = 0;
  {
    const cs = heads.map((_, k) => region(k, 0));
    mergeKeys(K, keysOf(cs), (s) => {
      T++;
      termsBytes += utf8.encode(s).length;
    });
  }
  let R = 0;
  let rawBytes = 0;
  let stemsBytes = 0;
  const rawMap = heads.map((h) => new Int32Array(h.R));
  const rawSeen = new Int32Array(K);
  {
    const cs = heads.map((_, k) => region(k, 2));
    let stemLen = 0;
    const keys = keysOf(cs, (c) => {
      stemLen = c.strBytes().length;
      c.u32();
    });
    const stemOf = new Int32Array(K);
    mergeKeys(
      K,
      (k) => {
        const s = keys(k);
        stemOf[k] = stemLen;
        return s;
      },
      (s, holders) => {
        rawBytes += utf8.encode(s).length;
        stemsBytes += stemOf[holders[0]!]!;
        for (const k of holders) rawMap[k]![rawSeen[k]!++] = R;
        R++;
      },
    );
  }
  const layout = segmentLayout({ n, T, R, P, RI }, [sum((h) => h.refsBytes), termsBytes, rawBytes, stemsBytes]);
  out.writeAt(layout.header, 0);
  const col = (name: string) => new Column(out, layout.columns[name]!);
  const [refsT, termsT, rawT, stemsT] = layout.tables.map((at) => new Column(out, at)) as [
    Column,
    Column,
    Column,
    Column,
  ];
  const totalLen = col('totalLen');
  for (let f = 0; f < NF; f++) totalLen.f64(sum((h) => h.totalLen[f]!));
  // Pass 2: terms with their postings (runs in order: document ids ascend within a term).
  const [postStart, postIds, postTf, termDf, termsOff] = ['postStart', 'postIds', 'postTf', 'termDf', 'termsOff'].map(
    col,
  ) as [Column, Column, Column, Column, Column];
  {
    const cs = heads.map((_, k) => region(k, 0));
    const ps = heads.map((_, k) => region(k, 1));
    let p = 0;
    let tb = 0;
    postStart.i32(0);
    termsOff.i32(0);
    mergeKeys(K, keysOf(cs), (s, holders) => {
      const b = utf8.encode(s);
      termsT.bytes(b);
      termsOff.i32((tb += b.length));
      let df = 0;
      for (const k of holders) {
        const c = ps[k]!;
        const count = c.u32();
        const ids = c.bytes(4 * count);
        const dv = new DataView(ids.buffer, ids.byteOffset, ids.byteLength);
        for (let i = 0; i < count; i++) postIds.i32(dv.getUint32(4 * i, true) + base[k]!);
        const tf = c.bytes(2 * NF * count);
        for (let i = 0; i < tf.length; i += 2) if (tf[i] !== 0 || tf[i + 1] !== 0) df++;
        postTf.bytes(tf);
        p += count;
      }
      postStart.i32(p);
      termDf.i32(df);
    });
  }
  // Raw vocabulary again, now written: tokens, stems, documents holding each.
  {
    const [rawOff, stemsOff, rawDf] = ['rawOff', 'stemsOff', 'rawDf'].map(col) as [Column, Column, Column];
    const cs = heads.map((_, k) => region(k, 2));
    const stems: Uint8Array[] = new Array<Uint8Array>(K);
    const dfs = new Int32Array(K);
    let rb = 0;
    let sb = 0;
    rawOff.i32(0);
    stemsOff.i32(0);
    mergeKeys(
      K,
      keysOf(cs, (c, k) => {
        stems[k] = c.strBytes().slice();
        dfs[k] = c.u32();
      }),
      (s, holders) => {
        const b = utf8.encode(s);
        rawT.bytes(b);
        rawOff.i32((rb += b.length));
        const stem = stems[holders[0]!]!;
        stemsT.bytes(stem);
        stemsOff.i32((sb += stem.length));
        let df = 0;
        for (const k of holders) df += dfs[k]!;
        rawDf.i32(df);
      },
    );
    for (const c of [rawOff, stemsOff, rawDf]) c.flush();
  }
  // Documents in run order: refs, field lengths, raw ids (the raw map keeps their order).
  {
    const [refsOff, docLen, rawStart, rawIds] = ['refsOff', 'docLen', 'rawStart', 'rawIds'].map(col) as [
      Column,
      Column,
      Column,
      Column,
    ];
    let rb = 0;
    let ri = 0;
    refsOff.i32(0);
    rawStart.i32(0);
    heads.forEach((h, k) => {
      const c = region(k, 3);
      const map = rawMap[k]!;
      for (let id = 0; id < h.n; id++) {
        const ref = c.strBytes();
        refsT.bytes(ref);
        refsOff.i32((rb += ref.length));
        for (let f = 0; f < NF; f++) docLen.i32(c.u32());
        const count = c.u32();
        for (let q = 0; q < count; q++) {
          const r = c.u32();
          if (r >= map.length) throw corrupt('build run vocabulary id out of range');
          rawIds.i32(map[r]!);
        }
        rawStart.i32((ri += count));
      }
    });
    for (const c of [refsOff, docLen, rawStart, rawIds]) c.flush();
  }
  // Document ids in ref order; a ref in two runs is a caller bug.
  {
    const refOrder = col('refOrder');
    const cs = heads.map((_, k) => region(k, 4));
    const ids = new Int32Array(K);
    mergeKeys(
      K,
      (k) => {
        const c = cs[k]!;
        if (c.done) return undefined;
        ids[k] = c.u32();
        return c.str();
      },
      (s, holders) => {
        if (holders.length > 1) throw new MemoryError('internal', `duplicate chunk ref in keyword index: ${s}`);
        refOrder.i32(base[holders[0]!]! + ids[holders[0]!]!);
      },
    );
    refOrder.flush();
  }
  for (const c of [totalLen, postStart, postIds, postTf, termDf, termsOff, refsT, termsT, rawT, stemsT]) c.flush();
  return layout.size;
}
