// One streamed full build on disk (issue 46), run by the keyword worker: records are folded into a
// keyword accumulator of at most `runDocs` chunks, each full accumulator written to the index folder
// as a run (indexes/lexical-runs.ts) and dropped; the chunk-record artifact is encoded as records
// arrive with its regions in files (spill.ts). `finish` merges the runs term by term into the final
// segment file and writes the chunk-record artifact after it, both under temporary names
// (`stream-<pid>-<tag>.lex` / `.chunks`) that a save renames. Memory stays that of one run, whatever
// the workspace's size; the artifacts are byte for byte those of the in-memory build.
// deps: indexes (lexical-accumulate, lexical-runs), engine (chunk-codec, index-manager, spill), node:path.
import { join } from 'node:path';
import { SegmentAccumulator } from '../../indexes/lexical/lexical-accumulate.js';
import { encodeRun, mergeRuns } from '../../indexes/lexical/lexical-runs.js';
import { ChunkRecordEncoder } from '../chunks/chunk-codec.js';
import { lexicalDoc, type ChunkRecord } from '../chunks/index-manager.js';
import { describeFile, FileOut, FileSpill, rangedAt, removeFile, type SpilledFile } from './spill.js';

/** Chunks per run: about 25 MB of accumulator on realistic text. */
export const RUN_DOCS = 16_384;

/** Where a streamed build writes: the index folder and the temporary name stem (`stream-<pid>-<tag>`). */
export interface SpillTarget {
  readonly folder: string;
  readonly name: string;
  /** Chunks per run (default {@link RUN_DOCS}; tests make it small). */
  readonly runDocs?: number;
}

export class SpilledSegmentJob {
  readonly #t: SpillTarget;
  #acc = new SegmentAccumulator();
  readonly #runs: string[] = [];
  readonly #spills: FileSpill[] = [];
  readonly #records: ChunkRecordEncoder;
  readonly #written: string[] = [];

  constructor(target: SpillTarget) {
    this.#t = target;
    this.#records = new ChunkRecordEncoder((region) => {
      const s = new FileSpill(this.#path(region));
      this.#spills.push(s);
      return s;
    });
  }

  #path(suffix: string): string {
    return join(this.#t.folder, `${this.#t.name}.${suffix}`);
  }

  add(records: readonly ChunkRecord[]): void {
    for (const r of records) {
      this.#acc.add(lexicalDoc(r));
      this.#records.add(r);
      if (this.#acc.size >= (this.#t.runDocs ?? RUN_DOCS)) this.#flushRun();
    }
  }

  #flushRun(): void {
    const data = this.#acc.finish();
    this.#acc = new SegmentAccumulator();
    const path = this.#path(`run${this.#runs.length}`);
    this.#runs.push(path);
    const out = new FileOut(path);
    try {
      encodeRun(data, out);
    } finally {
      out.close();
    }
  }

  /** Merge the runs and write both artifacts. @returns them under their temporary names. */
  finish(): { lex: SpilledFile; chunks: SpilledFile } {
    try {
      if (this.#acc.size > 0 || this.#runs.length === 0) this.#flushRun();
      const lexName = `${this.#t.name}.lex`;
      const chunksName = `${this.#t.name}.chunks`;
      const runs = this.#runs.map(rangedAt);
      const lex = new FileOut(this.#path('lex'));
      this.#written.push(lex.path);
      let size: number | undefined;
      try {
        size = mergeRuns(runs, lex);
      } finally {
        for (const r of runs) r.close();
        lex.close(size);
      }
      return { lex: describeFile(lex.path, lexName), chunks: this.#writeChunks(chunksName) };
    } catch (e) {
      this.abort();
      throw e;
    } finally {
      this.#dropRuns();
    }
  }

  #writeChunks(name: string): SpilledFile {
    const out = new FileOut(this.#path('chunks'));
    this.#written.push(out.path);
    try {
      this.#records.finishTo((piece) => out.write(piece));
    } finally {
      out.close();
    }
    return describeFile(out.path, name);
  }

  #dropRuns(): void {
    for (const p of this.#runs.splice(0)) removeFile(p);
  }

  /** Remove every file of this build (runs, regions, artifacts). */
  abort(): void {
    this.#dropRuns();
    for (const s of this.#spills) s.discard();
    for (const p of this.#written.splice(0)) removeFile(p);
  }
}
