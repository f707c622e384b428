// MemoryConfig: the shape of gitmem.config.json after defaults are applied. No I/O here; the
// service loads and validates the file against schemas/config.schema.json. Imports only core.
import type { DocKind } from './document.js';
import type { LayoutName } from './layout.js';

export const CONFIG_FILE = 'gitmem.config.json';

export interface MemoryConfig {
  /** Config format version. */
  readonly version: 1;
  /** Layout preset; undefined in the file means "detect from the files present". */
  readonly layout: LayoutName | undefined;
  /** Per-kind glob overrides (workspace-relative). */
  readonly kinds: Partial<Record<DocKind, readonly string[]>> | undefined;
  /** Extra globs that are never memory. */
  readonly ignore: readonly string[];
  readonly index: {
    /** Derived-state folder; relative to the workspace root, or absolute. Default `<gitdir>/gitmem`. */
    readonly dir: string | undefined;
  };
  readonly recall: {
    /** Default result count (clamped to 1…50). */
    readonly limit: number;
    /** Snippet length cap, in UTF-16 code units. */
    readonly snippetChars: number;
  };
  readonly chunking: {
    /** Most lines one chunk may span (consecutive bullets are grouped up to this). */
    readonly maxLines: number;
    /** Most characters in one chunk before a hard split. */
    readonly maxChars: number;
  };
  readonly limits: {
    /** Files larger than this many bytes are skipped with a diagnostic. */
    readonly maxFileBytes: number;
  };
  readonly dedupe: {
    /** Token Jaccard similarity at or above which a new memory of the same type is a duplicate. */
    readonly jaccard: number;
  };
}

export const DEFAULT_CONFIG: MemoryConfig = {
  version: 1,
  layout: undefined,
  kinds: undefined,
  ignore: [],
  index: { dir: undefined },
  recall: { limit: 10, snippetChars: 320 },
  chunking: { maxLines: 5, maxChars: 1200 },
  limits: { maxFileBytes: 5 * 1024 * 1024 },
  dedupe: { jaccard: 0.9 },
};

/** Deep-merge a validated config object over {@link DEFAULT_CONFIG}. */
export function mergeConfig(raw: Readonly<Record<string, unknown>> | undefined): MemoryConfig {
  const r = (raw ?? {}) as Record<string, any>;
  const d = DEFAULT_CONFIG;
  return {
    version: 1,
    layout: r.layout ?? d.layout,
    kinds: r.kinds ?? d.kinds,
    ignore: r.ignore ?? d.ignore,
    index: { ...d.index, ...(r.index ?? {}) },
    recall: { ...d.recall, ...(r.recall ?? {}) },
    chunking: { ...d.chunking, ...(r.chunking ?? {}) },
    limits: { ...d.limits, ...(r.limits ?? {}) },
    dedupe: { ...d.dedupe, ...(r.dedupe ?? {}) },
  };
}
