// The MCP tools (docs/DESIGN.md §8), one file each, in the order hosts list them. deps: mcp (tools/*).
import { memoryAudit } from './audit.js';
import { memoryCheckpoint } from './checkpoint.js';
import { memoryCompleteTask } from './complete-task.js';
import { memoryForget } from './forget.js';
import { memoryGet } from './get.js';
import { memoryObserve } from './observe.js';
import { memoryRecall } from './recall.js';
import { memoryRemember } from './remember.js';
import { memoryState } from './state.js';
import { memoryStats } from './stats.js';
import type { McpTool, ToolDefinition } from './types.js';
import { memoryValidate } from './validate.js';

export type { McpTool, McpToolContext, ToolAnnotations, ToolDefinition } from './types.js';

/** The tools, in the order hosts list them. */
export const TOOLS: readonly McpTool[] = [
  memoryRecall,
  memoryRemember,
  memoryGet,
  memoryCheckpoint,
  memoryState,
  memoryValidate,
  memoryForget,
  memoryCompleteTask,
  memoryObserve,
  memoryAudit,
  memoryStats,
];

/** The tools as advertised: name, description, JSON Schema of the arguments and annotations. */
export const TOOL_DEFINITIONS: readonly ToolDefinition[] = TOOLS.map((t) => t.definition);
