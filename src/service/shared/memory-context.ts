// What the use cases behind createMemory share: the file system, config and layout, derived-state
// storage, the parse cache, the semantic half and the freshness engine, and the three reads
// (files as they are, the index brought up to date, the parsed workspace). Built once by
// service/memory.ts. deps: core, engine (types).
import type { MemoryConfig } from '../../core/config.js';
import type { Clock, IndexStorage, Logger, MemoryFs } from '../../core/ports.js';
import type { MemoryWorkspace } from '../../core/workspace.js';
import type { IndexFreshness, SyncOutcome } from '../../engine/freshness/freshness.js';
import type { IndexSnapshot } from '../../engine/chunks/index-manager.js';
import type { KnownFile, LoadedConfig, WorkspaceRead } from '../../engine/load/load.js';
import type { DocCache } from '../../engine/load/parse-cache.js';
import type { SemanticIndex } from '../../engine/vectors/semantic.js';

export interface MemoryContext {
  /** The workspace root (absolute; `fs.root`). */
  readonly root: string;
  readonly fs: MemoryFs;
  readonly loaded: LoadedConfig;
  readonly config: MemoryConfig;
  readonly storage: IndexStorage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly docCache: DocCache;
  /** The embedding model's folder: config `model.dir` resolved, else the installed model's (undefined: none). */
  readonly modelDir: string | undefined;
  /** The vector half; undefined when `model.enabled` is false. */
  readonly semantic: SemanticIndex | undefined;
  readonly freshness: IndexFreshness;
  /**
   * `scan` (one-shot calls): every recall walks the files first. `manual` (long-lived hosts that get
   * file events): recall answers from the last snapshot.
   */
  readonly freshnessMode: 'scan' | 'manual';
  /** Read every memory file (`known`: skip files whose stat key is unchanged). */
  read(
    onProgress?: (phase: string, done: number, total: number) => void,
    known?: (path: string) => KnownFile | undefined,
  ): Promise<WorkspaceRead>;
  /** Bring the index up to date with the files (a stat walk; `full` reads every file). */
  fresh(options?: {
    rebuild?: boolean;
    full?: boolean;
    onProgress?: (phase: string, done: number, total: number) => void;
  }): Promise<{ raw: WorkspaceRead; snap: IndexSnapshot; out: SyncOutcome }>;
  /**
   * The index snapshot a one-shot answer reads, brought up to date with the files: by {@link fresh}'s
   * stat walk, or with none when the workspace's listing is the one the last clean walk vouched for
   * (engine/freshness/walk-digest.ts).
   */
  answerSnapshot(): Promise<IndexSnapshot>;
  /** The parsed workspace (reads and parses every memory file). */
  workspace(): Promise<MemoryWorkspace>;
  /** The git repository around the workspace (absent outside git): the code check and provenance read it. */
  readonly git?: { readonly gitdir: string; readonly workTree: string };
}
