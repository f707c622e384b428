// What an MCP tool is: its definition as advertised (name, description, JSON Schema of the arguments,
// annotations) and its handler over the opened workspace. No SDK types: mcp/server.ts adapts these to
// the protocol. deps: core (ports), service (types), validate (JSON Schema type).
import type { Clock, MemoryFs } from '../../core/ports.js';
import type { GitLocation } from '../../service/git-ops/checkpoint.js';
import type { Memory } from '../../service/memory.js';
import type { StateService } from '../../service/state/state.js';
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

/** What a tool's handler gets: the opened workspace and its file access (same root), the repository, the working state. */
export interface McpToolContext {
  readonly memory: Memory;
  readonly fs: MemoryFs;
  readonly git: GitLocation;
  readonly clock?: Clock;
  /** The working-state service, opened once per tool set on first use. */
  state(): Promise<StateService>;
}

/** One tool: its definition and its handler (arguments already checked against the schema; throws MemoryError). */
export interface McpTool {
  readonly definition: ToolDefinition;
  handle(ctx: McpToolContext, args: Record<string, unknown>): Promise<Record<string, unknown>>;
}
