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
 * Normalise a tool path to a workspace-relative POSIX path.
 * @returns undefined for URLs, globs, paths outside `cwd`, `..` escapes and vendored folders.
 */
export function normaliseToolPath(raw: string, cwd?: string): string | undefined {
  let p = raw
    .trim()
    .replace(/^file:\/\//, '')
    .replace(/\\/g, '/');
  if (!p || /^[a-z][a-z0-9+.-]*:\/\//i.test(p) || /[*?{}[\]<>|$`]/.test(p) || p.includes('\0')) return undefined;
  p = p.replace(/^["']|["']$/g, '');
  if (/^[A-Za-z]:\//.test(p) || p.startsWith('/')) {
    const base = cwd?.replace(/\\/g, '/').replace(/\/+$/, '');
    if (!base || !(p === base || p.startsWith(`${base}/`))) return undefined;
    p = p.slice(base.length + 1);
  }
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') return undefined;
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
