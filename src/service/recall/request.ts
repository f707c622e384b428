// The one recall-request mapper: a recall request as an entry point receives it (CLI flags, MCP tool
// arguments, the language server's gitmem/recall params, a host request off the socket) → the
// `RecallOptions` the recall use case takes. Each entry point names its surface; the surface decides
// which fields it accepts and who the answer is for (audience, channel). Pure, types only: the CLI's
// cold start imports it. deps: service (recall types).
import type { RecallOptions } from './types.js';

/** Which entry point asked. */
export type RecallSurface = 'cli' | 'mcp' | 'lsp' | 'host';

/**
 * A recall request's fields as the entry points spell them. `all` is `--all` / the MCP `all`
 * argument (`includeHidden`); `now` is a day (`YYYY-MM-DD`), an ISO date-time string or a Date;
 * `forAgent` is the language server's flag for a language-model tool's request.
 */
export interface RecallRequestFields extends Pick<
  RecallOptions,
  | 'mode'
  | 'types'
  | 'tags'
  | 'kinds'
  | 'file'
  | 'since'
  | 'until'
  | 'limit'
  | 'includeHidden'
  | 'history'
  | 'explain'
  | 'agent'
  | 'budget'
  | 'context'
  | 'snippetChars'
  | 'audience'
  | 'channel'
  | 'provenance'
> {
  readonly all?: boolean;
  readonly now?: string | Date;
  readonly forAgent?: boolean;
  /** The CLI's flag names (`--type`, `--tag`, `--kind`), repeatable. */
  readonly type?: readonly string[];
  readonly tag?: readonly string[];
  readonly kind?: readonly string[];
}

/** Recall options that cross the host socket (JSON-safe; `now` travels as an ISO date string). */
export const RECALL_WIRE_KEYS = [
  'mode',
  'types',
  'tags',
  'kinds',
  'file',
  'since',
  'until',
  'limit',
  'includeHidden',
  'explain',
  'agent',
  'budget',
  'context',
  'snippetChars',
  'history',
  'audience',
  'channel',
  'provenance',
] as const;

type Field = keyof RecallRequestFields;

/** The fields each surface accepts; any other field of the request is left out. */
const SURFACE_FIELDS: Readonly<Record<RecallSurface, readonly Field[]>> = {
  cli: [
    'mode',
    'type',
    'tag',
    'kind',
    'file',
    'since',
    'until',
    'limit',
    'all',
    'history',
    'explain',
    'agent',
    'budget',
    'context',
    'now',
  ],
  mcp: ['mode', 'limit', 'types', 'tags', 'kinds', 'file', 'since', 'until', 'all', 'history', 'budget', 'context'],
  lsp: ['mode', 'limit', 'types', 'tags', 'kinds', 'file', 'since', 'until', 'forAgent'],
  host: [...RECALL_WIRE_KEYS, 'now'],
};

/** The JSON type each field must have; a field of another type is left out. */
const FIELD_TYPE: Readonly<Record<Field, 'string' | 'strings' | 'number' | 'boolean' | 'date'>> = {
  mode: 'string',
  types: 'strings',
  tags: 'strings',
  kinds: 'strings',
  file: 'string',
  since: 'string',
  until: 'string',
  limit: 'number',
  all: 'boolean',
  includeHidden: 'boolean',
  history: 'boolean',
  explain: 'boolean',
  agent: 'string',
  budget: 'number',
  context: 'number',
  now: 'date',
  snippetChars: 'number',
  audience: 'string',
  channel: 'string',
  provenance: 'boolean',
  forAgent: 'boolean',
  type: 'strings',
  tag: 'strings',
  kind: 'strings',
};

/** Request names that are not the option's own name. */
const OPTION_NAME: Readonly<Partial<Record<Field, keyof RecallOptions>>> = {
  all: 'includeHidden',
  type: 'types',
  tag: 'tags',
  kind: 'kinds',
};

function typed(kind: (typeof FIELD_TYPE)[Field], v: unknown): unknown {
  if (kind === 'strings') return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined;
  if (kind === 'date') {
    const d = v instanceof Date ? v : typeof v === 'string' ? new Date(v) : undefined;
    return d && !Number.isNaN(d.getTime()) ? d : undefined;
  }
  if (kind === 'string') return typeof v === 'string' && v !== '' ? v : undefined;
  return typeof v === kind ? v : undefined;
}

/** Who the answer is for, by surface: MCP answers an agent (a budgeted block is injected), the language server a person unless `forAgent`. */
function audienceOf(surface: RecallSurface, f: Readonly<Record<string, unknown>>): Partial<RecallOptions> {
  if (surface === 'mcp') return { audience: f.budget !== undefined ? 'injected' : 'agent', channel: 'mcp' };
  if (surface === 'lsp' && f.forAgent === true) return { audience: 'agent', channel: 'lsp' };
  return {};
}

/**
 * One recall request → the recall use case's options. Fields the surface does not accept, absent
 * fields (undefined, null, an empty string) and fields of the wrong JSON type are left out; `all` becomes
 * `includeHidden` and the CLI's `type`/`tag`/`kind` become `types`/`tags`/`kinds`; a `now` day or ISO string becomes a Date (`YYYY-MM-DD` is that day at 00:00 UTC).
 * Values are not range-checked here: the recall use case checks them (service/shared/inputs.ts).
 * @param surface the entry point that received the request.
 * @param request the request's fields (untrusted JSON from MCP, the LSP and the socket).
 */
export function recallOptionsOf(surface: RecallSurface, request: Readonly<Record<string, unknown>>): RecallOptions {
  const out: Record<string, unknown> = {};
  for (const k of SURFACE_FIELDS[surface]) {
    if (request[k] === undefined || request[k] === null || k === 'forAgent') continue;
    const v = typed(FIELD_TYPE[k], request[k]);
    if (v !== undefined) out[OPTION_NAME[k] ?? k] = v;
  }
  return { ...out, ...audienceOf(surface, request) } as RecallOptions;
}
