// Layout presets: which workspace paths are memory, and of which document kind (docs/DESIGN.md §1).
// Pure; imports only core. Detection takes a probe so that the caller does the I/O.
import type { DocKind } from './document.js';
import { MemoryError } from './errors.js';
import { matchesAnyOf } from './glob.js';

export type LayoutName = 'default' | 'openclaw' | 'fusion' | 'plain';
export const LAYOUT_NAMES: readonly LayoutName[] = ['default', 'openclaw', 'fusion', 'plain'];

/** A `YYYY-MM-DD` prefix of a daily-note file name, as a glob. */
const DATE = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]';

export interface Layout {
  readonly name: LayoutName;
  /** Folder (relative, POSIX, '' = root) that holds MEMORY.md, entries/, playbook/, daily notes. */
  readonly memoryDir: string;
  /** Kind → globs, tried in {@link KIND_ORDER}; the first match wins. */
  readonly kinds: Readonly<Record<DocKind, readonly string[]>>;
  /** Globs never treated as memory (vendored folders, tool state). */
  readonly ignore: readonly string[];
}

/** Most specific first: a path is long_term before it can be a generic note. */
export const KIND_ORDER: readonly DocKind[] = [
  'long_term',
  'dreams',
  'current_state',
  'entry',
  'playbook',
  'daily',
  'note',
];

const COMMON_IGNORE = [
  '**/node_modules/**',
  '**/.git/**',
  '**/.gitmem/**',
  '**/.obsidian/**',
  '**/.trash/**',
  '**/.vscode/**',
  '**/dist/**',
];

function under(dir: string): Record<DocKind, string[]> {
  const p = dir ? `${dir}/` : '';
  return {
    long_term: [`${p}MEMORY.md`],
    dreams: [`${p}DREAMS.md`],
    current_state: [`${p}CURRENT_STATE.md`],
    entry: [`${p}entries/**/*.md`],
    playbook: [`${p}playbook/**/*.md`],
    daily: [`${p}**/${DATE}*.md`],
    note: [`${p}**/*.md`],
  };
}

/** @returns the preset for `name`. */
export function layoutPreset(name: LayoutName): Layout {
  switch (name) {
    case 'default':
      return { name, memoryDir: 'memory', kinds: under('memory'), ignore: COMMON_IGNORE };
    case 'fusion':
      return { name, memoryDir: '.fusion/memory', kinds: under('.fusion/memory'), ignore: COMMON_IGNORE };
    case 'openclaw': {
      const m = under('memory');
      return {
        name,
        memoryDir: 'memory',
        kinds: {
          ...m,
          long_term: ['MEMORY.md', 'memory.md'],
          dreams: ['DREAMS.md', 'memory/DREAMS.md'],
          current_state: ['memory/CURRENT_STATE.md', 'CURRENT_STATE.md'],
        },
        ignore: COMMON_IGNORE,
      };
    }
    case 'plain':
      return { name, memoryDir: '', kinds: under(''), ignore: COMMON_IGNORE };
  }
}

/** Kind globs overridden per kind by config (`kinds`), ignore globs appended. */
export function withOverrides(
  layout: Layout,
  kinds: Partial<Record<DocKind, readonly string[]>> | undefined,
  ignore: readonly string[] | undefined,
): Layout {
  return {
    ...layout,
    kinds: { ...layout.kinds, ...(kinds ?? {}) } as Record<DocKind, readonly string[]>,
    ignore: [...layout.ignore, ...(ignore ?? [])],
  };
}

/** @returns the kind of `path` under `layout`, or undefined when the path is not memory. */
export function classify(path: string, layout: Layout): DocKind | undefined {
  if (!/\.md$/i.test(path)) return undefined;
  if (matchesAnyOf(path, layout.ignore)) return undefined;
  for (const kind of KIND_ORDER) {
    if (matchesAnyOf(path, layout.kinds[kind])) return kind;
  }
  return undefined;
}

/**
 * The guard every write of a memory file shares (remember, append, complete-task, the MCP tools):
 * @returns the kind `path` has under `layout`.
 * @throws MemoryError `path.ignored` (with `data.glob`) when an `ignore` glob covers a path that would
 * otherwise be memory: gitmem never reads, recalls or commits such a file, so writing it would make
 * memory nobody sees (docs/bad-inputs.md U18); `path.not-memory` when no kind matches.
 */
export function memoryKindForWrite(path: string, layout: Layout): DocKind {
  const kind = classify(path, layout);
  if (kind) return kind;
  const glob = /\.md$/i.test(path) ? layout.ignore.find((g) => matchesAnyOf(path, [g])) : undefined;
  if (glob !== undefined && classify(path, { ...layout, ignore: [] })) {
    throw new MemoryError('path.ignored', `${path} is covered by the ignore glob "${glob}", so nothing was written`, {
      data: { path, glob },
      hint: `gitmem never reads, recalls or commits ignored files: remove or narrow "${glob}" in the ignore list of gitmem.config.json to keep memory there`,
    });
  }
  throw new MemoryError('path.not-memory', `${path} is not a memory file in the ${layout.name} layout`, {
    data: { path },
  });
}

/** What detection needs to know about the folder. */
export interface LayoutProbe {
  /** Does this relative path exist (file or folder)? */
  exists(path: string): boolean;
  /**
   * Why the folder is a notes workspace (core/layout-evidence.ts: a notes app's vault marker, a daily
   * note, a typed entry, a memory-bank file), or undefined when its markdown is a project's own
   * (README, docs, changelog) or there is none.
   */
  readonly notes?: string;
}

/** A detected layout and the reason, in words, for `gitmem init` to print. */
export interface DetectedLayout {
  readonly name: LayoutName;
  readonly reason: string;
}

/**
 * Pick a layout from the files present, for a workspace with no config:
 * `.fusion/memory/` → fusion; a root MEMORY.md (without memory/MEMORY.md) → openclaw;
 * a `memory/` folder → default; SOUL.md or HEARTBEAT.md → openclaw; notes (`probe.notes`) → plain;
 * anything else (an empty folder, a project's README and docs) → default (docs/bad-inputs.md R50).
 */
export function explainLayout(probe: LayoutProbe): DetectedLayout {
  if (probe.exists('.fusion/memory')) return { name: 'fusion', reason: 'found .fusion/memory/' };
  const rootMemory = probe.exists('MEMORY.md') ? 'MEMORY.md' : probe.exists('memory.md') ? 'memory.md' : undefined;
  if (rootMemory && !probe.exists('memory/MEMORY.md')) {
    return { name: 'openclaw', reason: `found ${rootMemory} at the root` };
  }
  if (probe.exists('memory')) return { name: 'default', reason: 'found memory/' };
  for (const f of ['SOUL.md', 'HEARTBEAT.md']) {
    if (probe.exists(f)) return { name: 'openclaw', reason: `found ${f}` };
  }
  if (probe.notes) return { name: 'plain', reason: `found notes: ${probe.notes}` };
  return { name: 'default', reason: 'no memory files found; other markdown (README, docs) is not memory' };
}

/** {@link explainLayout} without the reason. */
export function detectLayout(probe: LayoutProbe): LayoutName {
  return explainLayout(probe).name;
}

/** @returns the `YYYY-MM-DD` date a daily-note file name starts with, when it is a real date. */
export function dailyDateOf(path: string): string | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(base);
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.getUTCFullYear() !== Number(m[1]) || d.getUTCMonth() + 1 !== Number(m[2]) || d.getUTCDate() !== Number(m[3])) {
    return undefined;
  }
  return `${m[1]}-${m[2]}-${m[3]}`;
}
