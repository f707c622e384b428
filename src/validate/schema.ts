// JSON-Schema validation of front-matter and gitmem.config.json: compiles schemas/*.json once (ajv)
// and maps validator errors to Diagnostics at the offending key's range. The only ajv user.
// Imports only core, ajv, ajv-formats and the schemas; never parse/ (docs/ARCHITECTURE.md).
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import configSchema from '../../schemas/config.schema.json' with { type: 'json' };
import entrySchema from '../../schemas/entry.schema.json' with { type: 'json' };
import playbookSchema from '../../schemas/playbook.schema.json' with { type: 'json' };
import { compareDiagnostics, DiagnosticCode, type Diagnostic, type Severity } from '../core/diagnostics.js';
import type { MemoryDoc } from '../core/document.js';
import { LineIndex, range, type Range } from '../core/position.js';
import { maskName } from '../core/secret-mask.js';
import ajvOptions from './ajv-options.json' with { type: 'json' };
import { precompiledConfigValidator } from './config-validator.js';
import { heavyValidate } from './lazy.js';

/** Front-matter schemas by name (the doc kinds that carry typed front-matter). */
export type FrontMatterSchemaName = 'entry' | 'playbook';

/** The raw schema objects, for editor hints (completion, hover) built elsewhere. */
export const SCHEMAS = {
  entry: entrySchema as Readonly<Record<string, unknown>>,
  playbook: playbookSchema as Readonly<Record<string, unknown>>,
  config: configSchema as Readonly<Record<string, unknown>>,
} as const;

/** Severity of each schema diagnostic code; unknown keys and odd dates only warn (docs/DESIGN.md §1). */
const SCHEMA_SEVERITY: Readonly<Record<string, Severity>> = {
  [DiagnosticCode.missingField]: 'error',
  [DiagnosticCode.invalidValue]: 'error',
  [DiagnosticCode.unknownField]: 'warning',
  [DiagnosticCode.invalidDate]: 'warning',
};

/** One problem in gitmem.config.json: JSON pointer of the offending value (or unknown key). */
export interface ConfigError {
  readonly pointer: string;
  readonly message: string;
}

// ---------------------------------------------------------------------------------------------
// Compilation (once, lazily: the CLI's recall path never pays for it)

/** ISO-8601 date-time: `T` or a space, minutes required, seconds and fraction optional, optional zone. */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d|60)(?:[.,]\d+)?)?(?: ?(?:[Zz]|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?))?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isRealDate(y: string, m: string, d: string): boolean {
  const dt = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  return dt.getUTCFullYear() === Number(y) && dt.getUTCMonth() + 1 === Number(m) && dt.getUTCDate() === Number(d);
}

/** @returns true for an ISO-8601 calendar date (`2026-11-29`) that exists. */
export function isIsoDate(s: string): boolean {
  const m = DATE.exec(s);
  return m !== null && isRealDate(m[1]!, m[2]!, m[3]!);
}

/** @returns true for an ISO-8601 date-time (`2026-11-29T14:02:00Z`, offset optional) on a real date. */
export function isIsoDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  return m !== null && isRealDate(m[1]!, m[2]!, m[3]!);
}

/**
 * Copy of `schema` where every object schema that lists `properties` but says nothing about
 * `additionalProperties` forbids extra keys. The published schemas allow unknown keys (they are
 * only warnings); the strict copy is how we find them in the same validation pass.
 */
function strictCopy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictCopy);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    // `enum`, `const`, `default` and `examples` hold data, not subschemas.
    out[k] = k === 'enum' || k === 'const' || k === 'default' || k === 'examples' ? v : strictCopy(v);
  }
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

type SchemaName = FrontMatterSchemaName | 'config';
let ajvInstance: Ajv | undefined;
const compiled: Partial<Record<SchemaName, ValidateFunction>> = {};

/**
 * The validator of one schema, compiled on first use: a one-shot CLI call that only reads the config
 * compiles only the config schema. Our schemas are fixed, so ajv's check of each schema against
 * the JSON-Schema meta-schema is skipped at run time (it cost more than the compile itself);
 * test/unit/validate/schema.test.ts runs that check instead.
 */
function validatorOf(name: SchemaName): ValidateFunction {
  const done = compiled[name];
  if (done) return done;
  // The bundle carries the config validator precompiled (validate/config-validator.ts).
  if (name === 'config' && precompiledConfigValidator) return (compiled.config = precompiledConfigValidator);
  if (!ajvInstance) {
    const { Ajv, addFormats } = heavyValidate();
    const ajv = new Ajv({ ...ajvOptions, logger: false });
    addFormats(ajv);
    // Our dates: ISO-8601 date, or date-time with an optional offset (RFC 3339 would require one).
    ajv.addFormat('date', { type: 'string', validate: isIsoDate });
    ajv.addFormat('date-time', { type: 'string', validate: isIsoDateTime });
    ajvInstance = ajv;
  }
  const schema =
    name === 'entry' ? strictCopy(entrySchema) : name === 'playbook' ? strictCopy(playbookSchema) : configSchema;
  const fn = ajvInstance.compile(schema as object);
  compiled[name] = fn;
  return fn;
}

// ---------------------------------------------------------------------------------------------
// Error → finding

/** A schema finding before it gets a range: what, where (JSON pointer) and how bad. */
interface Finding {
  readonly code: DiagnosticCode;
  readonly pointer: string;
  readonly message: string;
  readonly data: Record<string, unknown>;
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointer(seg: string): string {
  return seg.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `/files/0/relation` → `files[0].relation`; `` → `front-matter` (or `root`). */
export function fieldName(pointer: string, root = 'front-matter'): string {
  if (pointer === '') return root;
  let out = '';
  for (const seg of pointer.slice(1).split('/').map(unescapePointer)) {
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}

function show(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  // Masked before it is cut (R130): a cut credential no longer matches its pattern, yet keeps most of it.
  const s = typeof value === 'string' ? JSON.stringify(maskName(value)) : String(value);
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  null: 'null',
};

function describeType(t: unknown): string {
  const types = Array.isArray(t) ? t : [t];
  return types.map((x) => ARTICLE[String(x)] ?? String(x)).join(' or ');
}

/** Lower numbers win when several errors hit the same value: `enum` says more than `type`. */
const KEYWORD_RANK: Record<string, number> = { enum: 0, const: 0, type: 1 };

/**
 * Turn ajv errors into findings: drop `if` wrappers, fold date `anyOf`/`format` errors into one
 * `invalid-date`, turn `additionalProperties` into `unknown-field` at the key, and keep one
 * `invalid-value` per value.
 */
function toFindings(errors: readonly ErrorObject[], root: string): Finding[] {
  const out: Finding[] = [];
  const valueErrors = new Map<string, ErrorObject>();
  const dates = new Set<string>();
  for (const e of errors) {
    const field = fieldName(e.instancePath, root);
    if (e.keyword === 'if') continue;
    if (e.schemaPath.startsWith('#/definitions/date/') && (e.keyword === 'format' || e.keyword === 'anyOf')) {
      if (dates.has(e.instancePath)) continue;
      dates.add(e.instancePath);
      out.push({
        code: DiagnosticCode.invalidDate,
        pointer: e.instancePath,
        message: `${field} is not an ISO-8601 date or date-time (got ${show(e.data)}); write e.g. 2026-11-29 or 2026-11-29T14:02:00Z`,
        data: { field, value: e.data },
      });
      continue;
    }
    if (e.keyword === 'additionalProperties') {
      const key = String((e.params as { additionalProperty?: unknown }).additionalProperty);
      const pointer = `${e.instancePath}/${escapePointer(key)}`;
      out.push({
        code: DiagnosticCode.unknownField,
        pointer,
        message: `unknown field ${fieldName(pointer, root)}`,
        data: { field: fieldName(pointer, root), key },
      });
      continue;
    }
    if (e.keyword === 'required') {
      const key = String((e.params as { missingProperty?: unknown }).missingProperty);
      const missing = e.instancePath === '' ? key : `${field}.${key}`;
      out.push({
        code: DiagnosticCode.missingField,
        pointer: e.instancePath,
        message: `missing required field ${missing}`,
        data: { field: missing, key },
      });
      continue;
    }
    const prev = valueErrors.get(e.instancePath);
    if (!prev || (KEYWORD_RANK[e.keyword] ?? 2) < (KEYWORD_RANK[prev.keyword] ?? 2)) valueErrors.set(e.instancePath, e);
  }
  for (const [pointer, e] of valueErrors) {
    const field = fieldName(pointer, root);
    const params = e.params as Record<string, unknown>;
    let message: string;
    if (e.keyword === 'enum') {
      message = `${field} must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')} (got ${show(e.data)})`;
    } else if (e.keyword === 'type' && e.schemaPath === '#/definitions/fileRef/else/type') {
      // The `if: string / else: object` branch: say both, not just "must be a mapping".
      message = `${field} must be a file path or a mapping with path, relation and lines (got ${show(e.data)})`;
    } else if (e.keyword === 'type') {
      message = `${field} must be ${describeType(params.type)} (got ${show(e.data)})`;
    } else {
      message = `${field} ${e.message ?? 'is invalid'} (got ${show(e.data)})`;
    }
    out.push({ code: DiagnosticCode.invalidValue, pointer, message, data: { field, keyword: e.keyword } });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Ranges

/** The whole of `line` (0-based) in `doc`. */
function lineRange(doc: MemoryDoc, line: number): Range {
  const idx = new LineIndex(doc.text);
  const l = Math.max(0, Math.min(line, idx.lineCount - 1));
  return range(l, 0, l, idx.lineText(l).length);
}

/**
 * Range for a finding at JSON `pointer`: the key token when there is one, else the value; walks up
 * the pointer to the nearest node the parser recorded. Falls back to the opening `---` line of the
 * block (the block itself would underline every line), or line 0 when there is no front-matter.
 */
export function frontMatterRange(doc: MemoryDoc, pointer: string): Range {
  const fm = doc.frontMatter;
  if (!fm) return lineRange(doc, 0);
  let p = pointer;
  while (p !== '') {
    const node = fm.nodes[p];
    if (node) return node.key ?? node.value;
    p = p.slice(0, p.lastIndexOf('/'));
  }
  const block = fm.nodes['']?.value ?? fm.range;
  return lineRange(doc, block.start.line);
}

// ---------------------------------------------------------------------------------------------
// Public API

/**
 * Validate the front-matter of `doc` against the entry or playbook schema.
 * A document without front-matter is validated as `{}` (so a missing `type` is reported); a block
 * that is not YAML, did not parse or was never closed yields nothing here, because the parser
 * already reported it (`memory.front-matter.*`).
 * @returns diagnostics with codes `memory.schema.*`, sorted by position.
 */
export function validateFrontMatter(doc: MemoryDoc, schema: FrontMatterSchemaName): Diagnostic[] {
  const fm = doc.frontMatter;
  if (fm && (fm.language !== 'yaml' || fm.data === undefined)) return [];
  // An unclosed or broken block was already reported by the parser; "missing type" on top is noise.
  if (doc.diagnostics.some((d) => d.code.startsWith('memory.front-matter.'))) return [];
  const data = fm?.data ?? {};
  const validate = validatorOf(schema);
  if (validate(data)) return [];
  return toFindings(validate.errors ?? [], 'front-matter')
    .map((f) => ({
      path: doc.path,
      range: frontMatterRange(doc, f.pointer),
      severity: SCHEMA_SEVERITY[f.code] ?? 'error',
      code: f.code,
      message: f.message,
      data: { pointer: f.pointer, ...f.data },
    }))
    .sort(compareDiagnostics);
}

/**
 * Validate the parsed contents of gitmem.config.json against schemas/config.schema.json.
 * Unknown keys are errors here (a typo in config silently does nothing otherwise).
 * @returns `ok` and, when not ok, one error per problem with the JSON pointer of the value.
 */
export function validateConfig(raw: unknown): { ok: boolean; errors: ConfigError[] } {
  const validate = validatorOf('config');
  if (validate(raw)) return { ok: true, errors: [] };
  const errors = toFindings(validate.errors ?? [], 'gitmem.config.json').map((f) => ({
    pointer: f.pointer,
    message: f.message,
  }));
  return { ok: false, errors };
}
