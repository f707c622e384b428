// Shared by the live keyword index's unit tests (test/unit/engine/live/, engine/vectors/): a file's
// indexed state built by the real parser and chunker, and a segment builder that records how many
// chunks each build was handed (to tell a delta build from a rebuild of every record).
import type { DocKind } from '../../src/core/document.js';
import { contentHash } from '../../src/core/hash.js';
import { toRelPath } from '../../src/core/paths.js';
import type { Logger } from '../../src/core/ports.js';
import { docRecords } from '../../src/engine/chunks/index-manager.js';
import type { FileState } from '../../src/engine/live/live-index-types.js';
import { SegmentBuilder } from '../../src/engine/segments/segment-builder.js';
import { parseDocument } from '../../src/parse/parse-document.js';

/** A logger that drops every line. */
export const quietLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** The state of `path` holding `text`: its content hash and chunk records (and `stat`, when given). */
export function fileState(path: string, text: string, stat?: string, kind: DocKind = 'note'): FileState {
  const doc = parseDocument({ path: toRelPath(path), kind, text });
  return { hash: contentHash(text), records: docRecords(doc), ...(stat !== undefined ? { stat } : {}) };
}

/** A real segment builder whose `sizes` lists the chunk count of each build, in order. */
export function countingBuilder(logger: Logger = quietLogger): { builder: SegmentBuilder; sizes: number[] } {
  const builder = new SegmentBuilder({ script: false, logger });
  const sizes: number[] = [];
  const build = builder.build.bind(builder);
  builder.build = (records, options) => {
    sizes.push(records.length);
    return build(records, options);
  };
  return { builder, sizes };
}
