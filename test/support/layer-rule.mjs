// The dependency rule of docs/ARCHITECTURE.md as data, read by test/unit/architecture.test.ts (which
// checks every import, dynamic ones included) and by eslint.config.js (no-restricted-imports per
// layer, so an editor flags a static import across the rule as it is typed). One copy, two readers.

/**
 * Which project layers each layer may import (itself always allowed). A layer is a top-level folder
 * of src/ (`index` is src/index.ts).
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const ALLOWED = {
  core: [],
  parse: ['core'],
  validate: ['core'],
  indexes: ['core'],
  git: ['core'],
  continuity: ['core'],
  ace: ['core'],
  // Node-facing adapters; worker-embedder runs the indexes' ONNX embedder in a worker thread.
  platform: ['core', 'indexes'],
  // The live index engine: files → segments, chunk table, vectors, freshness. Never a use case.
  engine: ['core', 'parse', 'validate', 'indexes', 'git'],
  // The use cases (recall, remember, state, ACE, git operations, …), each in its room under service/.
  service: ['core', 'parse', 'validate', 'indexes', 'git', 'continuity', 'ace', 'engine'],
  // The editor language service: the parsed workspace and one module per feature, over service's Memory.
  editor: ['core', 'parse', 'validate', 'indexes', 'continuity', 'engine', 'service'],
  server: ['editor', 'service', 'protocol', 'core'],
  cli: ['service', 'platform', 'core', 'host'],
  // One-shot calls answered by a running host over a local socket (protocol, endpoint, handler).
  host: ['service', 'engine', 'core'],
  mcp: ['service', 'validate', 'core'],
  backends: ['service', 'engine', 'core', 'platform'],
  protocol: [],
  index: ['service', 'core', 'backends'],
};

/**
 * File-level exceptions to the layer matrix (file relative to src/ → a layer, or one target file
 * relative to src/ with its `.js` import suffix), each a process entry (docs/ARCHITECTURE.md:
 * platform is constructed only in server/main.ts, cli/main.ts and tests): the language server's
 * entry builds the platform objects, and `gitmem lsp` starts that entry.
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const ENTRY_EXCEPTIONS = {
  'server/main.ts': ['platform', 'host'],
  'cli/commands/lsp.ts': ['server/main.js'],
  // `gitmem mcp` starts the MCP adapter (which itself imports only service and core).
  'cli/commands/mcp.ts': ['mcp/server.js'],
  // Not an entry: git's checkpoint locks are lock files like the others, and platform/lockfile.ts
  // (node:* only, no platform object) is the one implementation (docs/ARCHITECTURE.md).
  'git/lock.ts': ['platform/lockfile.js'],
};
