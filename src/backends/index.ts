// The backends adapter (docs/DESIGN.md §7): the MemoryBackend contract, the registry, the built-in backends,
// layered file operations and prompt instructions. deps: service, platform, core. Never mcp.
export * from './types.js';
export * from './registry.js';
export { FileMemoryBackend, type FileMemoryBackendOptions } from './file-backend.js';
export { ReadOnlyMemoryBackend } from './readonly-backend.js';
export { GitmemMemoryBackend, type GitmemMemoryBackendOptions } from './gitmem-backend.js';
export {
  QmdMemoryBackend,
  mapQmdResults,
  type QmdMemoryBackendOptions,
  type QmdFallbackReason,
} from './qmd-backend.js';
export { findExecutable } from './qmd-cli.js';
export {
  listProjectMemoryFiles,
  readProjectMemoryFile,
  writeProjectMemoryFile,
  readProjectMemoryWindow,
  resolveProjectMemoryPath,
  openProjectWorkspace,
  MAX_GET_LINES,
  DEFAULT_GET_LINES,
  type MemoryFileInfo,
  type MemoryFileLayer,
  type ProjectFileOptions,
  type ProjectWorkspace,
} from './project-files.js';
export { searchProjectMemory, boundSnippet } from './local-search.js';
export * from './instructions.js';
export { createMemoryToolBackend, type OpenedMemoryToolBackend } from './memory-tool.js';
