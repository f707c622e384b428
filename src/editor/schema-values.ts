// Allowed values from the JSON Schemas (schemas/*.json through validate/): the enum at a JSON
// pointer, the values a front-matter field may take, and the edit distance that ranks them against
// what is typed. deps: core, validate.
import { ENTRY_TYPES } from '../core/document.js';
import { SCHEMAS } from '../validate/schema.js';

export type Schema = Readonly<Record<string, unknown>>;

function deref(root: Schema, s: Schema | undefined): Schema | undefined {
  if (!s) return undefined;
  const ref = s.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/definitions/')) {
    const defs = (root.definitions ?? {}) as Record<string, Schema>;
    return deref(root, defs[ref.slice('#/definitions/'.length)]);
  }
  return s;
}

/** Enum values of the schema node at a JSON pointer (`/type`, `/files/0/relation`). */
export function enumAtPointer(root: Schema, pointer: string): string[] {
  let node: Schema | undefined = root;
  for (const part of pointer.split('/').slice(1)) {
    node = deref(root, node);
    if (!node) return [];
    if (/^\d+$/.test(part)) node = node.items as Schema | undefined;
    else {
      const props = (node.properties ??
        ((node.else as Schema | undefined)?.properties as Schema | undefined) ??
        {}) as Record<string, Schema>;
      node = props[part];
    }
  }
  node = deref(root, node);
  const values = node?.enum;
  return Array.isArray(values) ? values.map(String) : [];
}

export function enumValues(schema: Schema | undefined, field: string, leaf: string): string[] {
  if (field === 'type' && (!schema || schema === SCHEMAS.entry)) return [...ENTRY_TYPES];
  if (!schema) return [];
  const pointer = `/${field
    .split('.')
    .map((p, i, all) => (i < all.length - 1 ? `${p}/0` : p))
    .join('/')}`;
  const direct = enumAtPointer(schema, pointer);
  if (direct.length) return direct;
  return leaf === 'relation' ? enumAtPointer(schema, '/files/0/relation') : [];
}

/** Levenshtein distance (small strings only: enum values). */
export function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const prev = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (x[i - 1] === y[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  // Prefix and containment matches first ("decison" → decision, "fix" → error_fix).
  return prev[y.length]! - (y.includes(x) || x.includes(y) ? 100 : 0);
}
