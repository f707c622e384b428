// Building blocks of the tools' JSON Schemas and annotations, and the arguments helper the handlers
// share. deps: validate (JSON Schema type), mcp (tools/types).
import type { JsonSchema } from '../../validate/arguments.js';
import type { ToolAnnotations } from './types.js';

/** A tag is one line without control characters (the entry schema's rule, docs/bad-inputs.md U23). */
export const TAG_PATTERN = '^[^\\u0000-\\u001f\\u007f\\u0085\\u2028\\u2029]+$';

export const str = (description: string, extra: Partial<JsonSchema> = {}): JsonSchema => ({
  type: 'string',
  description,
  ...extra,
});
export const strings = (
  description: string,
  items: JsonSchema = { type: 'string', minLength: 1, maxLength: 4000 },
): JsonSchema => ({
  type: 'array',
  description,
  items,
  maxItems: 100,
});
export const object = (properties: Record<string, JsonSchema>, required: string[] = []) =>
  ({ type: 'object', properties, required, additionalProperties: false }) as const;

export const readOnly = (title: string): ToolAnnotations => ({
  title,
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});
export const writes = (title: string, destructive: boolean, idempotent: boolean): ToolAnnotations => ({
  title,
  readOnlyHint: false,
  destructiveHint: destructive,
  idempotentHint: idempotent,
  openWorldHint: false,
});

/** A checked array argument as strings (the schema has checked the items). */
export const asStrings = (v: unknown): string[] | undefined => (Array.isArray(v) ? (v as string[]) : undefined);
