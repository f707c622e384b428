// The memory-backend contract (docs/DESIGN.md §7): the shapes an agent runtime (e.g. Fusion's memory plugin
// host) programs against, and the typed error every backend throws. Types only, plus the error class.
// deps: none (no project imports), so any adapter or host can depend on it.

/**
 * What a backend can do. Hosts read these flags to decide which operations to offer (a runtime hides
 * "update memory" when `writable` is false) and which prompt wording to use.
 */
export interface MemoryBackendCapabilities {
  /** `read`, `get` and `search` return memory content. */
  readonly readable: boolean;
  /** `write` stores content; false means `write` throws {@link MemoryBackendError} `READ_ONLY`. */
  readonly writable: boolean;
  /** A write replaces the file in one step (temp file + fsync + rename): readers never see half a file. */
  readonly supportsAtomicWrite: boolean;
  /** The backend itself merges concurrent writers (none of the built-ins does: last writer wins). */
  readonly hasConflictResolution: boolean;
  /** Written content survives the process (files on disk). */
  readonly persistent: boolean;
}

/** Result of {@link MemoryBackend.read}: the long-term memory file. */
export interface MemoryReadResult {
  /** The file's text; `''` when it does not exist. */
  readonly content: string;
  /** Whether the long-term file existed. */
  readonly exists: boolean;
  /** `type` of the backend that served the read. */
  readonly backend: string;
}

/** Result of {@link MemoryBackend.write}. */
export interface MemoryWriteResult {
  /** Always true when `write` returns (failures throw). */
  readonly success: boolean;
  /** `type` of the backend that stored the content. */
  readonly backend: string;
  /** Workspace-relative POSIX path that was written (gitmem addition; hosts may ignore it). */
  readonly path?: string;
}

/** Options of {@link MemoryBackend.get}: a file and an optional 1-based line window. */
export interface MemoryGetOptions {
  /** Workspace-relative path (`.fusion/memory/MEMORY.md`), or a bare layered name (`MEMORY.md`, `2026-05-02.md`). */
  readonly path: string;
  /** First line, 1-based (default 1). */
  readonly startLine?: number;
  /** Number of lines (default 120, at most 400). */
  readonly lineCount?: number;
}

/** Result of {@link MemoryBackend.get}. Lines are 1-based and inclusive; `endLine < startLine` means an empty window. */
export interface MemoryGetResult {
  /** Canonical workspace-relative POSIX path. */
  readonly path: string;
  /** The lines of the window joined with `\n`. */
  readonly content: string;
  readonly startLine: number;
  readonly endLine: number;
  /** Lines in the whole file. */
  readonly totalLines: number;
  readonly backend: string;
}

/** Options of {@link MemoryBackend.search}. */
export interface MemorySearchOptions {
  readonly query: string;
  /** Result count (default 5, clamped to 1…20). */
  readonly limit?: number;
}

/** One search hit: a bounded snippet, never a whole file. Lines are 1-based and inclusive. */
export interface MemorySearchResult {
  /** Workspace-relative POSIX path of a memory file (readable with {@link MemoryBackend.get}). */
  readonly path: string;
  readonly lineStart: number;
  readonly lineEnd: number;
  /** At most {@link MAX_SNIPPET_CHARS} characters. */
  readonly snippet: string;
  /** Higher is better; comparable only within one response. */
  readonly score: number;
  readonly backend: string;
}

/**
 * A memory backend. `rootDir` is always the project (workspace) root folder; the backend finds the
 * memory files from the workspace layout (gitmem.config.json `layout`, else detected:
 * `.fusion/memory/` → fusion, root `MEMORY.md` → openclaw, else default `memory/`).
 */
export interface MemoryBackend {
  /** Registry key, e.g. `gitmem`, `file`, `readonly`, `qmd`. */
  readonly type: string;
  /** Human-readable name. */
  readonly name: string;
  readonly capabilities: MemoryBackendCapabilities;
  /**
   * Read the long-term memory file.
   * @returns `{ content: '', exists: false }` when there is none.
   * @throws MemoryBackendError `READ_FAILED` (unreadable), `BACKEND_UNAVAILABLE` (the store cannot open).
   */
  read(rootDir: string): Promise<MemoryReadResult>;
  /**
   * Replace the long-term memory file with `content`.
   * @throws MemoryBackendError `READ_ONLY`, `NOT_FOUND` (no such root folder), `QUOTA_EXCEEDED` (over
   *   `limits.maxFileBytes`), `WRITE_FAILED`, `BACKEND_UNAVAILABLE`.
   */
  write(rootDir: string, content: string): Promise<MemoryWriteResult>;
  /**
   * A line window of one memory file. Paths outside the memory files are rejected.
   * @throws MemoryBackendError `UNSUPPORTED` (path rejected), `NOT_FOUND`, `READ_FAILED`.
   */
  get?(rootDir: string, options: MemoryGetOptions): Promise<MemoryGetResult>;
  /** Search memory; bounded snippets, best first. An empty or term-less query gives `[]`. */
  search?(rootDir: string, options: MemorySearchOptions): Promise<MemorySearchResult[]>;
  /** @returns true when the long-term memory file exists. Never throws. */
  exists?(rootDir: string): Promise<boolean>;
}

/** The eight stable error codes of the contract. Hosts branch on these, never on message text. */
export type MemoryBackendErrorCode =
  | 'NOT_FOUND'
  | 'READ_ONLY'
  | 'READ_FAILED'
  | 'WRITE_FAILED'
  | 'UNSUPPORTED'
  | 'CONFLICT'
  | 'QUOTA_EXCEEDED'
  | 'BACKEND_UNAVAILABLE';

/** Every {@link MemoryBackendErrorCode}, in declaration order. */
export const MEMORY_BACKEND_ERROR_CODES: readonly MemoryBackendErrorCode[] = [
  'NOT_FOUND',
  'READ_ONLY',
  'READ_FAILED',
  'WRITE_FAILED',
  'UNSUPPORTED',
  'CONFLICT',
  'QUOTA_EXCEEDED',
  'BACKEND_UNAVAILABLE',
];

/**
 * A backend operation failed. `code` is one of the eight {@link MemoryBackendErrorCode}s, `backend`
 * the `type` that raised it, `data` structured detail (e.g. `{ path, reason }` for a rejected path,
 * where `reason` is a gitmem `MemoryErrorCode` such as `path.outside-root`), `cause` the underlying error.
 */
export class MemoryBackendError extends Error {
  readonly code: MemoryBackendErrorCode;
  readonly backend: string;
  readonly data: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: MemoryBackendErrorCode,
    message: string,
    backend: string,
    options: { cause?: unknown; data?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'MemoryBackendError';
    this.code = code;
    this.backend = backend;
    this.data = options.data;
  }

  toJSON(): { code: MemoryBackendErrorCode; message: string; backend: string; data?: Record<string, unknown> } {
    return {
      code: this.code,
      message: this.message,
      backend: this.backend,
      ...(this.data === undefined ? {} : { data: { ...this.data } }),
    };
  }
}

/** @returns true when `e` is a {@link MemoryBackendError} (optionally with the given code). */
export function isMemoryBackendError(e: unknown, code?: MemoryBackendErrorCode): e is MemoryBackendError {
  return e instanceof MemoryBackendError && (code === undefined || e.code === code);
}

/** Host settings the backends read (Fusion's project settings use the same keys). */
export interface MemoryBackendSettings {
  /** Backend `type` to use; unknown or missing → {@link DEFAULT_MEMORY_BACKEND}. */
  readonly memoryBackendType?: string;
  /** `false` turns memory off: instruction builders return `''`. Default true. */
  readonly memoryEnabled?: boolean;
  readonly [key: string]: unknown;
}

/** Settings keys, as constants (Fusion's names). */
export const MEMORY_BACKEND_SETTINGS_KEYS = {
  MEMORY_BACKEND_TYPE: 'memoryBackendType',
  MEMORY_ENABLED: 'memoryEnabled',
} as const;

/** The backend {@link resolveMemoryBackend} falls back to: the full indexed store. */
export const DEFAULT_MEMORY_BACKEND = 'gitmem';

/** Longest snippet any built-in backend returns, in UTF-16 code units. */
export const MAX_SNIPPET_CHARS = 700;
