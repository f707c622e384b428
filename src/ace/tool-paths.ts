// ACE executor, paths named by tool calls: a raw path argument made workspace-relative, and the
// file event a call yields. Pure; imports nothing.
import type { FileRelation } from './types.js';

/** Looks like a file (has an extension or is a well-known extensionless file name). */
export function fileLike(p: string): boolean {
  const base = p.slice(p.lastIndexOf('/') + 1);
  return (
    /\.[A-Za-z0-9]{1,10}$/.test(base) ||
    /^(Makefile|Dockerfile|Procfile|Gemfile|Rakefile|LICENSE|Jenkinsfile|\.[a-z]+rc)$/.test(base)
  );
}

/**
 * Where a task's tool paths are resolved: `root` is the workspace (absolute paths count only under
 * it), `prefix` the workspace-relative folder the agent worked in (relative paths are under it), and
 * `outside` says the agent worked in a folder outside the workspace, so its relative paths name
 * files that are not the workspace's.
 */
export interface ToolPathBase {
  readonly root?: string;
  readonly prefix: string;
  readonly outside?: boolean;
}

const slashes = (p: string): string => p.replace(/\\/g, '/').replace(/\/+$/, '');
const isAbsolute = (p: string): boolean => /^[A-Za-z]:\//.test(p) || p.startsWith('/');

/** `p` made relative to the absolute folder `base`, or undefined when it is not under it. */
function under(p: string, base: string): string | undefined {
  if (p === base) return '';
  return p.startsWith(`${base}/`) ? p.slice(base.length + 1) : undefined;
}

/**
 * The {@link ToolPathBase} of a task run in workspace `root` by an agent in `cwd` (absolute, or
 * relative to the root). Absolute tool paths resolve against the root, never against `cwd`: a cwd of
 * `/etc` must not make `/etc/passwd` the workspace file `passwd`, and a cwd in a sub-folder must not
 * drop that folder from the path (docs/bad-inputs.md U28). Without a root, `cwd` stands for it.
 */
export function toolPathBase(root: string | undefined, cwd?: string): ToolPathBase {
  const r = root === undefined ? undefined : slashes(root);
  const c = cwd === undefined || !cwd.trim() ? undefined : slashes(cwd.trim());
  if (r === undefined) return c === undefined ? { prefix: '' } : { root: c, prefix: '' };
  if (c === undefined) return { root: r, prefix: '' };
  const rel = isAbsolute(c) ? under(c, r) : c;
  if (rel === undefined) return { root: r, prefix: '', outside: true };
  const parts: string[] = [];
  for (const seg of rel.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!parts.length) return { root: r, prefix: '', outside: true };
      parts.pop();
    } else parts.push(seg);
  }
  return { root: r, prefix: parts.join('/') };
}

/**
 * Normalise a tool path to a workspace-relative POSIX path. `base` is a {@link ToolPathBase}, or the
 * workspace root itself.
 * @returns undefined for URLs, globs, paths outside the workspace, `..` escapes and vendored folders.
 */
export function normaliseToolPath(raw: string, base?: string | ToolPathBase): string | undefined {
  const b: ToolPathBase = typeof base === 'string' ? { root: slashes(base), prefix: '' } : (base ?? { prefix: '' });
  let p = raw
    .trim()
    .replace(/^file:\/\//, '')
    .replace(/\\/g, '/');
  if (!p || /^[a-z][a-z0-9+.-]*:\/\//i.test(p) || /[*?{}[\]<>|$`]/.test(p) || p.includes('\0')) return undefined;
  p = p.replace(/^["']|["']$/g, '');
  const parts: string[] = [];
  if (isAbsolute(p)) {
    const rel = b.root === undefined ? undefined : under(p, b.root);
    if (rel === undefined) return undefined;
    p = rel;
  } else {
    // A relative path is under the folder the agent worked in.
    if (b.outside) return undefined;
    if (b.prefix) parts.push(...b.prefix.split('/'));
  }
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (!parts.length) return undefined;
      parts.pop();
      continue;
    }
    parts.push(seg);
  }
  if (parts.length === 0) return undefined;
  if (parts.some((s) => s === 'node_modules' || s === '.git')) return undefined;
  return parts.join('/');
}

export interface FileEvent {
  readonly path: string;
  readonly relation: FileRelation;
  readonly lines?: readonly [number, number];
}

export const num = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
};
