// Test support for test/unit/editor: an EditorView over a fixture folder, parsed by the real parser
// (engine/load/load.ts parseFiles → parse/) with the default config and layout. Files can be added or
// replaced by text; the clock is fixed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { contentHash } from '../../src/core/hash.js';
import { classify, layoutPreset } from '../../src/core/layout.js';
import { toRelPath, type RelPath } from '../../src/core/paths.js';
import type { EditorView } from '../../src/editor/types.js';
import type { RawFile } from '../../src/engine/load/load.js';
import { parseFiles } from '../../src/engine/load/parse-cache.js';

export const EDITOR_FIXTURE = join(import.meta.dirname, '..', '..', 'fixtures', 'editor');

/** The fixed "now" of {@link editorView}: 2026-12-01T12:00:00Z. */
export const NOW = new Date('2026-12-01T12:00:00Z');

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/**
 * The fixture folder `fixtures/editor` as an EditorView, with `files` (path → text) added or
 * replacing fixture files, and `fileDiagnostics` as a model would report them.
 */
export function editorView(
  files: Readonly<Record<string, string>> = {},
  fileDiagnostics: ReadonlyMap<RelPath, readonly Diagnostic[]> = new Map(),
): EditorView {
  const layout = layoutPreset('default');
  const texts = new Map<string, string>();
  for (const abs of walk(EDITOR_FIXTURE))
    texts.set(relative(EDITOR_FIXTURE, abs).split('\\').join('/'), readFileSync(abs, 'utf8'));
  for (const [p, t] of Object.entries(files)) texts.set(p, t);
  const raw: RawFile[] = [];
  for (const [p, text] of texts) {
    const kind = classify(p, layout);
    if (kind) raw.push({ path: toRelPath(p), kind, text, hash: contentHash(text) });
  }
  const workspace = parseFiles(raw, DEFAULT_CONFIG);
  const all = new Set(texts.keys());
  const code = [...all].filter((p) => !classify(p, layout)).sort();
  return {
    workspace,
    config: DEFAULT_CONFIG,
    layout,
    fileDiagnostics,
    hasFile: (p) => all.has(p),
    codeFiles: () => code,
    now: () => NOW,
  };
}
