// A small checker for the tool input JSON Schemas this server declares (the subset they use: type,
// enum, properties, required, additionalProperties: false, items, min/max, minLength/maxLength,
// pattern). Hosts usually validate too; this makes a bad input a tool error with a clear message
// instead of a crash deeper down. deps: core.
import { MemoryError } from '../core/errors.js';

/** The JSON Schema subset used by the tool definitions. */
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

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function problem(value: unknown, schema: JsonSchema, path: string): string | undefined {
  const at = path || 'arguments';
  if (schema.type !== undefined) {
    const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
    const t = typeOf(value);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) return `${at} must be ${types.join(' or ')}, got ${t}`;
  }
  if (schema.enum && !schema.enum.includes(value)) return `${at} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) return `${at} must not be empty`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return `${at} is longer than ${schema.maxLength} characters`;
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(value)) return `${at} does not match ${schema.pattern}`;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `${at} must be ≥ ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${at} must be ≤ ${schema.maximum}`;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return `${at} needs at least ${schema.minItems} item(s)`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return `${at} has more than ${schema.maxItems} items`;
    if (schema.items) {
      for (let i = 0; i < value.length; i++) {
        const p = problem(value[i], schema.items, `${at}[${i}]`);
        if (p) return p;
      }
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const k of schema.required ?? []) if (obj[k] === undefined) return `${path ? `${path}.` : ''}${k} is required`;
    for (const [k, v] of Object.entries(obj)) {
      const sub = schema.properties?.[k];
      const child = path ? `${path}.${k}` : k;
      if (!sub) {
        if (schema.additionalProperties === false) return `unknown argument ${child}`;
        continue;
      }
      if (v === undefined) continue;
      const p = problem(v, sub, child);
      if (p) return p;
    }
  }
  return undefined;
}

/**
 * @returns `args` when it matches `schema`.
 * @throws MemoryError `usage` naming the first problem (`limit must be ≤ 50`, `unknown argument foo`).
 */
export function checkArguments(tool: string, schema: JsonSchema, args: unknown): Record<string, unknown> {
  const value = args ?? {};
  const p = problem(value, { ...schema, type: 'object' }, '');
  if (p) throw new MemoryError('usage', `${tool}: ${p}`, { hint: 'see the tool\'s inputSchema (tools/list)' });
  return value as Record<string, unknown>;
}
