// What an MCP tool is: its definition as advertised (name, description, JSON Schema of the arguments,
// annotations) and its handler over the opened workspace. No SDK types: mcp/server.ts adapts these to
// the protocol. deps: core (ports), service (types), validate (JSON Schema type).
import type { MemoryFs } from '../../core/ports.js';
import type { GitLocation } from '../../service/git-ops/checkpoint.js';
import type { Memory } from '../../service/memory.js';
import type { JsonSchema } from '../../validate/arguments.js';

/** MCP tool annotations (hints for hosts: what may change, what may be lost). */
export interface ToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema & { readonly type: 'object' };
  readonly annotations: ToolAnnotations;
}

/** What a tool's handler gets: the opened workspace and its file access (same root), and the repository. */
export interface McpToolContext {
  readonly memory: Memory;
  readonly fs: MemoryFs;
  readonly git: GitLocation;
}

/** One tool: its definition and its handler (arguments already checked against the schema; throws MemoryError). */
export interface McpTool {
  readonly definition: ToolDefinition;
  handle(ctx: McpToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}
