// What `gitmem sync` takes and reports (service/git-ops/remote-sync.ts runs it): the options, the
// use case's input and the report. deps: service (git-ops types, Memory type).
import type { GitLocation, OversizedFile } from './checkpoint.js';
import type { MemoryDiffReport } from './diff.js';
import type { IncomingFinding } from './incoming-checks.js';
import type { Memory } from '../memory.js';

export interface SyncOptions {
  /** Remote name (default: the branch's upstream remote, else `origin`). */
  readonly remote?: string;
  /** Remote branch (default: the upstream branch, else the local branch's name). */
  readonly branch?: string;
  /** Rebase local commits onto the remote instead of merging (needs a clean tracked tree). */
  readonly rebase?: boolean;
  /** Skip the push (bring memory in only). */
  readonly noPush?: boolean;
  /**
   * Fetch-merge-push rounds when the push is rejected because the remote moved (default 6), with a
   * wait of 50–100 ms after the first lost race that doubles each round (sync-rounds.ts).
   */
  readonly attempts?: number;
  /**
   * The running gitmem entry script: the merge driver command used to tell true conflicts from the
   * ones gitmem's merge rules would merge, when this clone registered no driver (sync-conflicts.ts).
   */
  readonly cliScript?: string | undefined;
  /** Progress of the index run after the merge (phase `read`, `update`, `embed`; done of total). */
  readonly onIndexProgress?: (phase: string, done: number, total: number) => void;
}

/** `syncMemory`'s input: the repository, the sync's options and the workspace's index run. */
export interface SyncInput extends SyncOptions {
  /** The repository around the workspace (`gitdir`/`workTree` undefined outside git: `git.not-a-repository`). */
  readonly git: GitLocation;
  /** The workspace's index run (`Memory.index`), run after a merge brought memory in. */
  readonly index: Memory['index'];
}

export interface SyncCommit {
  readonly oid: string;
  readonly summary: string;
}

/** What one sync did. */
export interface SyncReport {
  readonly remote: string;
  readonly branch: string;
  readonly remoteBranch: string;
  /** The checkpoint commit made first, or null when memory was already committed. */
  readonly checkpoint: { readonly oid: string; readonly files: number } | null;
  /** Memory files `.gitignore` excludes: read by recall, never committed or sent. */
  readonly ignored: readonly string[];
  /** Memory files holding NUL bytes: held back, never committed or sent (docs/bad-inputs.md U16). */
  readonly binary: readonly string[];
  /** Files the checkpoint committed (and the push sends) that recall and validate skip for their size (U68). */
  readonly oversized: readonly OversizedFile[];
  /** Commits brought in from the remote (oldest first). */
  readonly commitsIn: SyncCommit[];
  /** Commits sent to the remote (oldest first; the merge commit included). */
  readonly commitsOut: SyncCommit[];
  readonly strategy: 'up-to-date' | 'fast-forward' | 'merge' | 'rebase' | 'push-only';
  /** Memory brought in: the memory diff from the HEAD before the sync to the HEAD after it. */
  readonly memoryDiff: MemoryDiffReport | null;
  /**
   * Re-index after the merge (null when nothing came in): files updated or removed, chunks embedded;
   * `first` when the clone had no index yet, so the run indexed all its `files` (a full first index).
   */
  readonly reindexed: {
    readonly upserted: number;
    readonly removed: number;
    readonly ms: number;
    readonly first: boolean;
    readonly files: number;
    readonly embedded: number;
  } | null;
  /** Incoming entries that repeat or may contradict another entry (the checks a local write gets). */
  readonly incomingFindings: readonly IncomingFinding[];
  readonly pushed: boolean;
  /** Fetch-merge-push rounds used. */
  readonly attempts: number;
}
