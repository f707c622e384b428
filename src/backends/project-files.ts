// Layered file operations for backends and hosts: list, read and write the long-term file, DREAMS.md and
// daily notes of a workspace — nothing else. Every path is validated (no `..`, no absolute path, no
// symlink out of the root, only layered files of the layout) and rejected with MemoryBackendError
// `UNSUPPORTED`. deps: core, service (config/layout loading), platform (node fs). Never mcp.
import { isMemoryError, type MemoryError } from '../core/errors.js';
import { contentHash } from '../core/hash.js';
import { classify, dailyDateOf, type Layout, type LayoutName } from '../core/layout.js';
import { toRelPath, type RelPath } from '../core/paths.js';
import type { MemoryFs } from '../core/ports.js';
import { decodeText } from '../core/text.js';
import type { MemoryConfig } from '../core/config.js';
import { createNodeFs } from '../platform/node-fs.js';
import { loadConfig } from '../engine/load/load.js';
import { MemoryBackendError, type MemoryGetOptions, type MemoryGetResult, type MemoryWriteResult } from './types.js';

/** Which layer a layered memory file belongs to. */
export type MemoryFileLayer = 'long-term' | 'daily' | 'dreams';

/** One layered memory file, as {@link listProjectMemoryFiles} reports it. */
export interface MemoryFileInfo {
  /** Workspace-relative POSIX path. */
  readonly path: string;
  /** `Long-term memory`, `Dreams`, or `Daily notes YYYY-MM-DD…`. */
  readonly label: string;
  readonly layer: MemoryFileLayer;
  /** Size in bytes. */
  readonly size: number;
  /** Last modification, ISO 8601. */
  readonly updatedAt: string;
}

/** Options shared by the layered operations. */
export interface ProjectFileOptions {
  /** Force a layout (default: gitmem.config.json `layout`, else detected from the files present). */
  readonly layout?: LayoutName;
  /** Backend `type` named in errors (default `file`). */
  readonly backend?: string;
}

/** An opened workspace: confined fs, settled layout and config. */
export interface ProjectWorkspace {
  readonly root: string;
  readonly fs: MemoryFs;
  readonly layout: Layout;
  readonly config: MemoryConfig;
}

const KIND_LAYER = { long_term: 'long-term', dreams: 'dreams', daily: 'daily' } as const;

/** Longest window {@link readProjectMemoryWindow} returns, and its default. */
export const MAX_GET_LINES = 400;
export const DEFAULT_GET_LINES = 120;

/**
 * Open `rootDir` (an existing folder) with its layout and config.
 * @throws MemoryBackendError `NOT_FOUND` when the folder does not exist; `BACKEND_UNAVAILABLE` when
 *   gitmem.config.json is invalid (data.reason `config.invalid`).
 */
export async function openProjectWorkspace(
  rootDir: string,
  options: ProjectFileOptions = {},
): Promise<ProjectWorkspace> {
  const backend = options.backend ?? 'file';
  if (typeof rootDir !== 'string' || rootDir.length === 0) {
    throw new MemoryBackendError('NOT_FOUND', 'rootDir is required', backend, {
      data: { reason: 'workspace.not-found' },
    });
  }
  let fs: MemoryFs;
  try {
    fs = createNodeFs(rootDir);
  } catch (e) {
    throw fromMemoryError(e, 'NOT_FOUND', backend, { rootDir });
  }
  try {
    const loaded = await loadConfig(fs, options.layout);
    return { root: fs.root, fs, layout: loaded.layout, config: loaded.config };
  } catch (e) {
    throw fromMemoryError(e, 'BACKEND_UNAVAILABLE', backend, { rootDir });
  }
}

/**
 * Validate a requested path against the layout. Accepts a workspace-relative path of a layered file
 * (`.fusion/memory/2026-05-02.md`) or a bare layered name resolved in the layout's memory folder
 * (`MEMORY.md`, `DREAMS.md`, `2026-05-02.md`).
 * @returns the canonical path and its layer.
 * @throws MemoryBackendError `UNSUPPORTED` with data.reason `path.invalid` (empty, NUL),
 *   `path.outside-root` (`..`, absolute) or `path.not-memory` (entries, playbook, CURRENT_STATE.md,
 *   any other file, a daily name that is not a real date).
 */
export function resolveProjectMemoryPath(
  layout: Layout,
  requested: string,
  backend = 'file',
): { path: RelPath; layer: MemoryFileLayer } {
  if (typeof requested !== 'string' || requested.trim().length === 0) {
    throw new MemoryBackendError('UNSUPPORTED', 'a memory path is required', backend, {
      data: { path: requested, reason: 'path.invalid' },
    });
  }
  let rel: RelPath;
  try {
    rel = toRelPath(requested.trim());
  } catch (e) {
    throw fromMemoryError(e, 'UNSUPPORTED', backend, { path: requested });
  }
  const candidates: string[] = [rel];
  if (!rel.includes('/') && layout.memoryDir) candidates.push(`${layout.memoryDir}/${rel}`);
  for (const c of candidates) {
    const layer = layerOf(c, layout);
    if (layer) return { path: c as RelPath, layer };
  }
  throw new MemoryBackendError(
    'UNSUPPORTED',
    `'${requested}' is not a layered memory file (long-term, DREAMS.md or a YYYY-MM-DD daily note) of the ${layout.name} layout`,
    backend,
    { data: { path: requested, reason: 'path.not-memory', allowed: allowedPatterns(layout) } },
  );
}

/** @returns the layer of a workspace-relative path, or undefined when it is not a layered file. */
export function layerOf(path: string, layout: Layout): MemoryFileLayer | undefined {
  const kind = classify(path, layout);
  if (kind !== 'long_term' && kind !== 'dreams' && kind !== 'daily') return undefined;
  if (kind === 'daily' && !dailyDateOf(path)) return undefined;
  return KIND_LAYER[kind];
}

/** The long-term file of `ws`: the first literal long-term path that exists, else the first one. */
export async function longTermPath(ws: ProjectWorkspace): Promise<RelPath> {
  const literal = ws.layout.kinds.long_term.filter((g) => !/[*?[{]/.test(g));
  for (const p of literal) {
    const st = await ws.fs.stat(toRelPath(p)).catch(() => undefined);
    if (st && !st.isDirectory) return toRelPath(p);
  }
  return toRelPath(literal[0] ?? (ws.layout.memoryDir ? `${ws.layout.memoryDir}/MEMORY.md` : 'MEMORY.md'));
}

/**
 * List the layered memory files (long-term first, then daily notes newest first, then dreams).
 * Symlinks out of the root are skipped. @throws as {@link openProjectWorkspace}.
 */
export async function listProjectMemoryFiles(
  rootDir: string,
  options: ProjectFileOptions = {},
): Promise<MemoryFileInfo[]> {
  const ws = await openProjectWorkspace(rootDir, options);
  const paths = await ws.fs.list((p) => layerOf(p, ws.layout) !== undefined);
  const out: MemoryFileInfo[] = [];
  for (const p of paths) {
    const st = await ws.fs.stat(p).catch(() => undefined);
    if (!st || st.isDirectory) continue;
    const layer = layerOf(p, ws.layout)!;
    out.push({
      path: p,
      label: labelOf(p, layer),
      layer,
      size: st.size,
      updatedAt: new Date(st.mtimeMs).toISOString(),
    });
  }
  const order: Record<MemoryFileLayer, number> = { 'long-term': 0, daily: 1, dreams: 2 };
  return out.sort(
    (a, b) =>
      order[a.layer] - order[b.layer] ||
      (a.layer === 'daily' ? b.path.localeCompare(a.path) : a.path.localeCompare(b.path)),
  );
}

/**
 * Read one layered memory file.
 * @throws MemoryBackendError `UNSUPPORTED` (path rejected, see {@link resolveProjectMemoryPath}; also a
 *   symlink leading out of the root), `NOT_FOUND`, `READ_FAILED` (unreadable, binary, over `limits.maxFileBytes`).
 */
export async function readProjectMemoryFile(
  rootDir: string,
  path: string,
  options: ProjectFileOptions = {},
): Promise<{ path: string; layer: MemoryFileLayer; content: string }> {
  const backend = options.backend ?? 'file';
  const ws = await openProjectWorkspace(rootDir, options);
  const { path: rel, layer } = resolveProjectMemoryPath(ws.layout, path, backend);
  const content = await readText(ws, rel, backend);
  if (content === undefined)
    throw new MemoryBackendError('NOT_FOUND', `memory file '${rel}' does not exist`, backend, { data: { path: rel } });
  return { path: rel, layer, content };
}

/**
 * Replace one layered memory file atomically (temp file in the same folder, fsync, rename); creates
 * missing folders. With `expectedHash` (the {@link contentHash} of the text last read, or `null` for
 * "must not exist yet") a concurrent change is refused instead of overwritten.
 * @throws MemoryBackendError `UNSUPPORTED` (path rejected), `QUOTA_EXCEEDED` (over `limits.maxFileBytes`),
 *   `CONFLICT` (expectedHash mismatch), `WRITE_FAILED`.
 */
export async function writeProjectMemoryFile(
  rootDir: string,
  path: string,
  content: string,
  options: ProjectFileOptions & { expectedHash?: string | null } = {},
): Promise<MemoryWriteResult> {
  const backend = options.backend ?? 'file';
  const ws = await openProjectWorkspace(rootDir, options);
  const { path: rel } = resolveProjectMemoryPath(ws.layout, path, backend);
  return writeChecked(ws, rel, content, backend, options.expectedHash);
}

/** Write `content` to an already-validated path of `ws`, with size and optional conflict checks. */
export async function writeChecked(
  ws: ProjectWorkspace,
  rel: RelPath,
  content: string,
  backend: string,
  expectedHash?: string | null,
): Promise<MemoryWriteResult> {
  if (typeof content !== 'string') {
    throw new MemoryBackendError('WRITE_FAILED', 'content must be a string', backend, {
      data: { path: rel, reason: 'usage' },
    });
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  const cap = ws.config.limits.maxFileBytes;
  if (bytes > cap) {
    throw new MemoryBackendError(
      'QUOTA_EXCEEDED',
      `content is ${bytes} bytes, over the ${cap}-byte limit (limits.maxFileBytes)`,
      backend,
      {
        data: { path: rel, bytes, limit: cap },
      },
    );
  }
  if (expectedHash !== undefined) {
    const current = await readText(ws, rel, backend, { unbounded: true }).catch((e: unknown) => {
      if (e instanceof MemoryBackendError && e.code === 'READ_FAILED') return undefined;
      throw e;
    });
    const actual = current === undefined ? null : contentHash(current);
    if (actual !== expectedHash) {
      throw new MemoryBackendError('CONFLICT', `'${rel}' changed since it was read`, backend, {
        data: { path: rel, expectedHash, actualHash: actual },
      });
    }
  }
  try {
    await ws.fs.writeTextAtomic(rel, content);
  } catch (e) {
    throw fromMemoryError(e, 'WRITE_FAILED', backend, { path: rel });
  }
  return { success: true, backend, path: rel };
}

/**
 * Read text of a validated path. @returns undefined when the file does not exist.
 * @throws MemoryBackendError `UNSUPPORTED` (symlink escape), `READ_FAILED`.
 */
export async function readText(
  ws: ProjectWorkspace,
  rel: RelPath,
  backend: string,
  opts: { unbounded?: boolean } = {},
): Promise<string | undefined> {
  try {
    if (!opts.unbounded) {
      const st = await ws.fs.stat(rel);
      if (st?.isDirectory)
        throw new MemoryBackendError('READ_FAILED', `'${rel}' is a folder`, backend, {
          data: { path: rel, reason: 'fs.read-failed' },
        });
      if (st && st.size > ws.config.limits.maxFileBytes) {
        throw new MemoryBackendError(
          'READ_FAILED',
          `'${rel}' is ${st.size} bytes, over the ${ws.config.limits.maxFileBytes}-byte limit`,
          backend,
          {
            data: { path: rel, reason: 'fs.too-large' },
          },
        );
      }
    }
    const bytes = await ws.fs.read(rel);
    if (!bytes) return undefined;
    const dec = decodeText(bytes);
    if (dec.problem === 'binary') {
      throw new MemoryBackendError('READ_FAILED', `'${rel}' holds binary data`, backend, {
        data: { path: rel, reason: 'memory.file.binary' },
      });
    }
    return dec.text;
  } catch (e) {
    if (e instanceof MemoryBackendError) throw e;
    throw fromMemoryError(e, 'READ_FAILED', backend, { path: rel });
  }
}

/** Cut a 1-based line window out of `text` (default 120 lines, at most 400). */
export function lineWindow(
  text: string,
  path: string,
  options: Pick<MemoryGetOptions, 'startLine' | 'lineCount'>,
  backend: string,
): MemoryGetResult {
  const body = text.replace(/^\uFEFF/, '');
  const lines = body.length === 0 ? [] : body.replace(/\r?\n$/, '').split(/\r?\n/);
  const start = Math.max(1, Math.floor(Number.isFinite(options.startLine) ? options.startLine! : 1));
  const count = Math.min(
    MAX_GET_LINES,
    Math.max(1, Math.floor(Number.isFinite(options.lineCount) ? options.lineCount! : DEFAULT_GET_LINES)),
  );
  const from = Math.min(start - 1, lines.length);
  const to = Math.min(from + count, lines.length);
  return {
    path,
    content: lines.slice(from, to).join('\n'),
    startLine: start,
    endLine: to,
    totalLines: lines.length,
    backend,
  };
}

/**
 * A line window of one layered memory file.
 * @throws as {@link readProjectMemoryFile}.
 */
export async function readProjectMemoryWindow(
  rootDir: string,
  options: MemoryGetOptions,
  fileOptions: ProjectFileOptions = {},
): Promise<MemoryGetResult> {
  const backend = fileOptions.backend ?? 'file';
  const file = await readProjectMemoryFile(rootDir, options?.path, fileOptions);
  return lineWindow(file.content, file.path, options, backend);
}

/** Map a gitmem {@link MemoryError} (or anything thrown) to a {@link MemoryBackendError}. */
export function fromMemoryError(
  e: unknown,
  fallback: MemoryBackendError['code'],
  backend: string,
  data: Record<string, unknown> = {},
): MemoryBackendError {
  if (e instanceof MemoryBackendError) return e;
  if (isMemoryError(e)) {
    const me = e as MemoryError;
    const code: MemoryBackendError['code'] =
      me.code === 'path.outside-root' || me.code === 'path.invalid' || me.code === 'path.not-memory'
        ? 'UNSUPPORTED'
        : me.code === 'fs.not-found' || me.code === 'workspace.not-found' || me.code === 'entry.not-found'
          ? 'NOT_FOUND'
          : me.code === 'config.invalid' || me.code === 'embedder.unavailable'
            ? 'BACKEND_UNAVAILABLE'
            : fallback;
    return new MemoryBackendError(code, me.message, backend, { cause: e, data: { ...data, reason: me.code } });
  }
  return new MemoryBackendError(fallback, (e as Error)?.message ?? String(e), backend, {
    cause: e,
    data: { ...data, reason: 'internal' },
  });
}

function labelOf(path: string, layer: MemoryFileLayer): string {
  if (layer === 'long-term') return 'Long-term memory';
  if (layer === 'dreams') return 'Dreams';
  return `Daily notes ${path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/i, '')}`;
}

function allowedPatterns(layout: Layout): string[] {
  return [...layout.kinds.long_term, ...layout.kinds.dreams, ...layout.kinds.daily];
}
