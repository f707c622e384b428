// Tool-argument checking with ajv: the JSON Schemas the MCP server declares for its tools' inputs
// are compiled once and checked before a tool runs, so a bad input is a usage error that names the
// first problem (`limit must be ≤ 50`, `unknown argument foo`) instead of a crash deeper down.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { MemoryError } from '../core/errors.js';
import { tooLongMessage } from '../core/write-limits.js';

/** The JSON Schema subset the tool definitions use. */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly enum?: readonly unknown[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly items?: JsonSchema;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly pattern?: string;
  readonly default?: unknown;
}

// unicode: false counts a length in UTF-16 code units, as core/write-limits.ts does; verbose keeps the
// refused value on the error, so a too-long one is worded as every write path words it (U62).
const ajv = new Ajv({
  allErrors: false,
  strict: false,
  logger: false,
  unicodeRegExp: true,
  unicode: false,
  verbose: true,
});
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** `/tool_usage/0/tool_name` → `tool_usage[0].tool_name`. */
function pathOf(pointer: string): string {
  let out = '';
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(key) ? `[${key}]` : out ? `.${key}` : key;
  }
  return out;
}

function message(e: ErrorObject): string {
  const at = pathOf(e.instancePath) || 'arguments';
  const child = (name: string) => (e.instancePath ? `${pathOf(e.instancePath)}.${name}` : name);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${child(String(p.missingProperty))} is required`;
    case 'additionalProperties':
      return `unknown argument ${child(String(p.additionalProperty))}`;
    case 'type':
      return `${at} must be ${String(p.type).split(',').join(' or ')}`;
    case 'enum':
      return `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'minLength':
      return Number(p.limit) <= 1
        ? `${at} must not be empty`
        : `${at} must have at least ${String(p.limit)} characters`;
    case 'maxLength':
      return tooLongMessage(at, typeof e.data === 'string' ? e.data.length : Number(p.limit) + 1, Number(p.limit));
    case 'pattern':
      return `${at} does not match ${String(p.pattern)}`;
    case 'minimum':
      return `${at} must be ≥ ${String(p.limit)}`;
    case 'maximum':
      return `${at} must be ≤ ${String(p.limit)}`;
    case 'minItems':
      return `${at} needs at least ${String(p.limit)} item(s)`;
    case 'maxItems':
      return `${at} has more than ${String(p.limit)} items`;
    default:
      return `${at} ${e.message ?? 'is invalid'}`;
  }
}

/** A decimal number written as a string: `"5"`, `" 12 "`, `"-1.5"` (not `""`, `"0x10"`, `"1e3"`, `"5 results"`). */
const NUMBER_TEXT = /^\s*-?\d+(?:\.\d+)?\s*$/;

/**
 * `args` with each top-level argument that the schema types as a number or integer, and that holds a
 * decimal number written as a string (`"limit": "5"`, as some clients send every value), as that
 * number: clearly what was meant (docs/bad-inputs.md R25). Anything else is left for the schema to
 * judge. A new object; `args` is not changed.
 */
function numbersFromStrings(schema: JsonSchema, args: unknown): unknown {
  if (!args || typeof args !== 'object' || Array.isArray(args) || !schema.properties) return args;
  let out: Record<string, unknown> | undefined;
  for (const [key, v] of Object.entries(args as Record<string, unknown>)) {
    const type = schema.properties[key]?.type;
    if (typeof v !== 'string' || (type !== 'integer' && type !== 'number') || !NUMBER_TEXT.test(v)) continue;
    out ??= { ...(args as Record<string, unknown>) };
    out[key] = Number(v);
  }
  return out ?? args;
}

/**
 * @returns `args` (or `{}` when absent) when it matches `schema`, an object schema.
 * @throws MemoryError `usage` naming the first problem, prefixed by the tool's name.
 */
export function checkArguments(tool: string, schema: JsonSchema, args: unknown): Record<string, unknown> {
  const value = numbersFromStrings(schema, args ?? {});
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile({ ...schema, type: 'object' });
    compiled.set(schema, validate);
  }
  if (!validate(value)) {
    const first = validate.errors?.[0];
    throw new MemoryError('usage', `${tool}: ${first ? message(first) : 'invalid arguments'}`, {
      hint: "see the tool's inputSchema (tools/list)",
    });
  }
  return value as Record<string, unknown>;
}
