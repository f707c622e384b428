// `index --rebuild` and a first build as a stream (issue 46): the workspace is read a window of files
// at a time (load.ts readWorkspace `onBatch`), each file parsed and chunked, its records handed to the
// live index's streamed base build (live-index-stream.ts) and dropped. Peak memory then follows the
// window and the built artifacts, not every file's text and every chunk record at once.
// deps: core (ports), engine (freshness-types, index-manager, live-index, load, parse-cache).
import type { Logger, MemoryFs } from '../../core/ports.js';
import type { SyncOutcome } from './freshness-types.js';
import { docRecords, type IndexSnapshot } from '../chunks/index-manager.js';
import type { LiveIndex } from '../live/live-index.js';
import { readWorkspace, type LoadedConfig, type WorkspaceRead } from '../load/load.js';
import { parseCached, type DocCache } from '../load/parse-cache.js';

/**
 * Say why the index is built from the files (a warning when an existing one was not usable: older
 * format, damaged; a first build is not worth one). @returns `reason`.
 */
export function logRebuild(logger: Logger, reason: string): string {
  if (reason !== 'rebuild requested' && !/^index missing/.test(reason))
    logger.warn(`keyword index not usable (${reason}); rebuilding it from the files`);
  else logger.debug(`rebuilding keyword index: ${reason}`);
  return reason;
}

/**
 * A walk that rebuilds (`rebuild`, or no usable index: `mustBuild()`), streamed, unless `full` (a walk
 * that keeps every text). Documents found in `d.docCache` are reused, new parses are not added;
 * skipped files go to `onSkip` (IndexFreshness says each once a process, U51). `onProgress` as
 * IndexFreshness.walk's.
 * @returns what a walk returns (the read's `files` empty: they were streamed), or undefined when
 *   this walk is no full build or the streamed build failed (logged; the caller then reads in full).
 */
export async function streamRebuild(
  live: LiveIndex,
  d: {
    readonly fs: MemoryFs;
    readonly loaded: LoadedConfig;
    readonly docCache?: DocCache | undefined;
    readonly logger: Logger;
  },
  options: {
    rebuild?: boolean;
    full?: boolean;
    onProgress?: (phase: string, done: number, total: number) => void;
    onSkip: (path: string, reason: string) => void;
  },
  mustBuild: () => Promise<boolean>,
): Promise<{ raw: WorkspaceRead; snap: IndexSnapshot; out: SyncOutcome } | undefined> {
  if (options.full || !(options.rebuild || (await mustBuild()))) return undefined;
  const reason = options.rebuild ? 'rebuild requested' : (live.loadFailure ?? 'index missing');
  logRebuild(d.logger, reason);
  const progress = options.onProgress;
  let raw: WorkspaceRead | undefined;
  try {
    const update = await live.rebuildStreamed(async (add) => {
      raw = await readWorkspace(d.fs, d.loaded, {
        ...(progress ? { onProgress: (done: number, total: number) => progress('read', done, total) } : {}),
        onSkip: options.onSkip,
        onBatch: (files) =>
          add(files.map((f) => [f.path, docRecords(parseCached(f, d.loaded.config, d.docCache, false))] as const)),
      });
      progress?.('update', 0, 0);
      return raw;
    });
    const snap = live.snapshot;
    return { raw: raw!, snap, out: { snap, source: 'built', reason, update } };
  } catch (e) {
    d.logger.warn(`streamed keyword build failed (${(e as Error).message}); building from a full read`);
    return undefined;
  }
}
