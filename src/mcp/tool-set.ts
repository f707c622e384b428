// The MCP tool set over an opened workspace: looks a tool up (mcp/tools/, one file each), checks its
// arguments against the tool's JSON Schema, runs its handler and records the memory files a write
// tool wrote as an agent's (the writer record). Every handler's failure becomes a tool error
// (isError), never an exception out of the server. deps: mcp (tools), service, validate, core.
import { isMemoryError } from '../core/errors.js';
import type { MemoryFs } from '../core/ports.js';
import { toRelPath } from '../core/paths.js';
import type { GitLocation } from '../service/git-ops/checkpoint.js';
import type { Memory } from '../service/memory.js';
import { recordWriter } from '../service/review/writers.js';
import { checkArguments } from '../validate/arguments.js';
import { TOOL_DEFINITIONS, TOOLS, type McpToolContext, type ToolDefinition } from './tools/index.js';

/** What the tools need: the opened workspace and its file access (same root), and the repository. */
export interface McpToolDeps {
  readonly memory: Memory;
  readonly fs: MemoryFs;
  readonly git: GitLocation;
  /**
   * Awaited before a tool runs (`gitmem mcp`: the index brought up to date for every tool but the
   * writes that name their own paths, cli/commands/mcp.ts).
   */
  readonly beforeCall?: (tool: string) => Promise<void>;
}

/** A tool's answer: JSON data, or an error with a stable code. */
export type ToolOutcome =
  | { readonly ok: true; readonly data: Record<string, unknown> }
  | { readonly ok: false; readonly error: { readonly code: string; readonly message: string; readonly hint?: string } };

/** Handlers keyed by tool name. */
export interface McpTools {
  readonly definitions: readonly ToolDefinition[];
  /** Run a tool. Never throws: failures come back as `{ok: false}`. */
  call(name: string, args: unknown): Promise<ToolOutcome>;
}

function toOutcomeError(e: unknown): ToolOutcome {
  if (isMemoryError(e))
    return { ok: false, error: { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}) } };
  return {
    ok: false,
    error: { code: 'internal', message: `internal error: ${e instanceof Error ? e.message : String(e)}` },
  };
}

/** `path` values (and `paths` lists) of .md files in a tool answer, two levels deep. */
function writtenPaths(data: unknown, depth = 0, out = new Set<string>()): Set<string> {
  if (!data || typeof data !== 'object' || depth > 2) return out;
  for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
    if ((k === 'path' || k === 'file') && typeof v === 'string' && /\.md$/i.test(v)) out.add(v);
    else if ((k === 'paths' || k === 'files' || k === 'written') && Array.isArray(v))
      for (const x of v)
        if (typeof x === 'string' && /\.md$/i.test(x)) out.add(x);
        else if (v && typeof v === 'object') writtenPaths(v, depth + 1, out);
  }
  return out;
}

/** The answer to a call of a tool that does not exist (`usage`, with the tools' names). */
function unknownTool(name: string): ToolOutcome {
  return {
    ok: false,
    error: {
      code: 'usage',
      message: `unknown tool "${name}"`,
      hint: `tools: ${TOOL_DEFINITIONS.map((d) => d.name).join(', ')}`,
    },
  };
}

/** Build the tool set over an opened workspace. */
export function createMcpTools(deps: McpToolDeps): McpTools {
  const { memory, fs } = deps;
  const ctx: McpToolContext = deps;

  /** The writer record (service/review/writers.ts): memory files a write tool names in its answer were written by an agent. */
  async function recordAgentWrites(data: Record<string, unknown>): Promise<void> {
    const files = new Map<string, string>();
    for (const p of writtenPaths(data)) {
      try {
        const bytes = await fs.read(toRelPath(p));
        if (bytes) files.set(p, new TextDecoder().decode(bytes));
      } catch {
        /* not a workspace path: nothing to attribute */
      }
    }
    await recordWriter(memory.storage, files, 'agent', 'mcp');
  }

  /**
   * The writes sent so far, settled or not. A call waits for the writes sent before it (MCP lets a
   * client send requests without waiting for answers): a recall sent after a remember sees it, and
   * writes are made in the order they were sent (R58). Reads do not wait for one another.
   */
  let writesSent: Promise<unknown> = Promise.resolve();

  return {
    definitions: TOOL_DEFINITIONS,
    call(name, args) {
      const tool = TOOLS.find((t) => t.definition.name === name);
      if (!tool) return Promise.resolve(unknownTool(name));
      const run = writesSent.then(() => callNow(tool, args));
      if (!tool.definition.annotations.readOnlyHint) writesSent = run;
      return run;
    },
  };

  /** Run `tool` now (see {@link McpTools.call}). */
  async function callNow(tool: (typeof TOOLS)[number], args: unknown): Promise<ToolOutcome> {
    const name = tool.definition.name;
    try {
      const a = checkArguments(name, tool.definition.inputSchema, args);
      await deps.beforeCall?.(name);
      const data = await tool.handle(ctx, a);
      if (!tool.definition.annotations.readOnlyHint && data.status !== 'duplicate') await recordAgentWrites(data);
      return { ok: true, data };
    } catch (e) {
      return toOutcomeError(e);
    }
  }
}
