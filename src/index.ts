// Public SDK: createMemory and the types a host needs. deps: service, core (types).
export { createMemory } from './service/memory.js';
export type {
  Memory,
  MemoryDeps,
  RememberInput,
  RememberResult,
  GetResult,
  DoctorReport,
  IndexReport,
} from './service/memory.js';
export type { RecallOptions, RecallResponse, RecallResult, RecallMode } from './service/recall/types.js';
/** Recall over an opened workspace: `recall(memory.context, query, options)`. */
export { recall } from './service/recall/recall.js';
/**
 * Working-state continuity (CURRENT_STATE.md, docs/DESIGN.md §5): snapshot/set/new/handoff/absorb and the
 * lifecycle hooks, each `fn(memory.context, input)`.
 */
export {
  statePath,
  stateRead,
  stateSnapshot,
  stateSet,
  stateNew,
  stateValidate,
  stateHandoff,
  stateAbsorb,
  stateStartup,
  stateEndOfRun,
  statePreCompaction,
  statePostTurn,
} from './service/state/state.js';
export type {
  StateInput,
  StateSnapshotInput,
  StateSetInput,
  StateAbsorbInput,
  StateLifecycleInput,
  StateRead,
  StateSetResult,
  StateNewResult,
  StateAbsorbResult,
  StateUpdate,
  StateSnapshot,
  HandoffSeed,
  WriteOptions,
} from './service/state/state.js';
export { MemoryError, isMemoryError } from './core/errors.js';
export type { MemoryErrorCode } from './core/errors.js';
export type { Diagnostic, Severity } from './core/diagnostics.js';
export { DiagnosticCode } from './core/diagnostics.js';
export type { MemoryDoc, Chunk, DocKind, EntryType } from './core/document.js';
export { ENTRY_TYPES, DOC_KINDS } from './core/document.js';
export type { RelPath } from './core/paths.js';
export type { MemoryFs, IndexStorage, Logger, Clock } from './core/ports.js';
/**
 * Memory backends (docs/DESIGN.md §7): the `MemoryBackend` contract with its `MemoryBackendError` codes, the
 * registry (`registerMemoryBackend`, `getMemoryBackend`, `listMemoryBackendTypes`,
 * `resolveMemoryBackend` → default `gitmem`), the built-ins (`gitmem`, `file`, `readonly`, `qmd`),
 * layered file operations and memory instructions for agent prompts.
 */
export * from './backends/index.js';
/**
 * Claude's client-side memory tool (`memory_20250818`, docs/integrations.md): `createMemoryToolBackend`
 * (exported with the backends above) serves `view`, `create`, `str_replace`, `insert`, `delete` and
 * `rename` over `/memories` on a folder of the workspace; a refused command throws `MemoryToolError`.
 */
export { MemoryToolError } from './service/memory-tool/types.js';
export type {
  MemoryToolCommand,
  MemoryToolOptions,
  ViewCommand,
  CreateCommand,
  StrReplaceCommand,
  InsertCommand,
  DeleteCommand,
  RenameCommand,
} from './service/memory-tool/types.js';
export type { MemoryToolBackend } from './service/memory-tool/memory-tool.js';
