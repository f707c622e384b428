// The dependency rule (docs/ARCHITECTURE.md) as a failing check: reads every src/**/*.ts and asserts
// the layer matrix (test/support/layer-rule.mjs, which eslint.config.js also reads) and the
// one-owner-per-library table.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALLOWED, ENTRY_EXCEPTIONS } from '../support/layer-rule.mjs';

const SRC = join(import.meta.dirname, '..', '..', 'src');

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Import specifiers of a file: static imports/exports, `import()` and `require()`. */
function importsOf(text: string): string[] {
  const out: string[] = [];
  const re =
    /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (const m of text.matchAll(re)) out.push((m[1] ?? m[2] ?? m[3] ?? m[4])!);
  return out;
}

const layerOf = (rel: string) => rel.split('/')[0]!.replace(/\.ts$/, '');

/** npm package → the only files (relative to src/) allowed to import it. */
const OWNERS: Record<string, RegExp> = {
  unified: /^parse\/(markdown|extract)\.ts$/,
  'remark-parse': /^parse\/(markdown|extract)\.ts$/,
  'remark-frontmatter': /^parse\/(markdown|extract)\.ts$/,
  'gray-matter': /^parse\/front-matter\.ts$/,
  // parse/heavy.ts and validate/heavy.ts are the lazily loaded entries that hand these out.
  yaml: /^parse\/(front-matter|serialize|heavy)\.ts$/,
  lunr: /^indexes\/lexical\/lexical-(build|stem)\.ts$/,
  'onnxruntime-node': /^indexes\/embed\/onnx-embedder\.ts$/,
  protobufjs: /^indexes\/embed\/fp32-graph\.ts$/,
  'isomorphic-git': /^git\//,
  chokidar: /^platform\/watcher\.ts$/,
  ajv: /^validate\/(schema|arguments|config-validator|heavy)\.ts$/,
  'ajv-formats': /^validate\/(schema|heavy)\.ts$/,
  diff: /^core\/line-diff\.ts$/,
  commander: /^cli\//,
  'cli-progress': /^cli\//,
  'write-file-atomic': /^platform\//,
  'vscode-languageserver': /^server\//,
  'vscode-languageserver-textdocument': /^server\//,
  'vscode-languageserver-protocol': /^protocol\//,
  '@modelcontextprotocol/sdk': /^mcp\//,
};

const all = files(SRC).map((abs) => ({
  rel: relative(SRC, abs).split('\\').join('/'),
  text: readFileSync(abs, 'utf8'),
}));

describe('dependency rule', () => {
  it('finds the source tree', () => {
    expect(all.length).toBeGreaterThan(10);
    expect(all.some((f) => f.rel.startsWith('core/'))).toBe(true);
  });

  it('each layer imports only the layers it may', () => {
    const violations: string[] = [];
    for (const f of all) {
      const layer = layerOf(f.rel);
      const allowed = ALLOWED[layer];
      expect(allowed, `unknown layer ${layer} (${f.rel}): add it to ALLOWED and ARCHITECTURE.md`).toBeDefined();
      for (const spec of importsOf(f.text)) {
        if (!spec.startsWith('.')) continue;
        const target = join(f.rel, '..', spec).split('\\').join('/');
        // JSON Schemas live outside src/ and are the single source of validation (validate/ only).
        if (target.startsWith('../schemas/') && layer === 'validate') continue;
        const tLayer = layerOf(target);
        const excepted = (ENTRY_EXCEPTIONS[f.rel] ?? []).some((e) => e === tLayer || e === target);
        if (tLayer !== layer && !allowed!.includes(tLayer) && !excepted) violations.push(`${f.rel} → ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('core imports only node:crypto / node:path and one pure library (jsdiff), in its owner', () => {
    const bad: string[] = [];
    for (const f of all.filter((x) => x.rel.startsWith('core/'))) {
      for (const spec of importsOf(f.text)) {
        if (spec.startsWith('.')) continue;
        if (OWNERS[spec]?.test(f.rel) && spec === 'diff') continue;
        if (!['node:crypto', 'node:path'].includes(spec)) bad.push(`${f.rel} → ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('pure layers import no node: modules except hashing and paths', () => {
    const bad: string[] = [];
    for (const f of all.filter((x) => /^(parse|validate|indexes|continuity|ace)\//.test(x.rel))) {
      for (const spec of importsOf(f.text)) {
        if (
          spec.startsWith('node:') &&
          !['node:crypto', 'node:path'].includes(spec) &&
          !/^indexes\/embed\/onnx-embedder\.ts$/.test(f.rel)
        ) {
          bad.push(`${f.rel} → ${spec}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it('each owned library is imported only by its owner', () => {
    const bad: string[] = [];
    for (const f of all) {
      for (const spec of importsOf(f.text)) {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        const owner = OWNERS[pkg];
        if (owner && !owner.test(f.rel)) bad.push(`${f.rel} imports ${pkg}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('service/ keeps only memory.ts at its top: every other use case is in a room folder', () => {
    const loose = all.filter((f) => /^service\/[^/]+\.ts$/.test(f.rel) && f.rel !== 'service/memory.ts');
    expect(loose.map((f) => f.rel)).toEqual([]);
    expect(all.some((f) => f.rel === 'service/recall/recall.ts')).toBe(true);
  });

  it('the engine imports no use case, editor or adapter', () => {
    const bad: string[] = [];
    for (const f of all.filter((x) => x.rel.startsWith('engine/'))) {
      for (const spec of importsOf(f.text)) {
        if (!spec.startsWith('.')) continue;
        const tLayer = layerOf(join(f.rel, '..', spec).split('\\').join('/'));
        if (['service', 'editor', 'server', 'cli', 'mcp', 'backends', 'platform'].includes(tLayer))
          bad.push(`${f.rel} → ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('docs/ARCHITECTURE.md lists every top-level folder of src/ and every room of service/, engine/ and indexes/', () => {
    const doc = readFileSync(join(SRC, '..', 'docs', 'ARCHITECTURE.md'), 'utf8');
    const folders = new Set(
      all
        .map((f) => f.rel.split('/'))
        .filter((p) => p.length > 1)
        .map((p) => p[0]!),
    );
    const rooms = new Set(
      all
        .map((f) => f.rel.split('/'))
        .filter((p) => ['service', 'engine', 'indexes'].includes(p[0]!) && p.length > 2)
        .map((p) => `${p[0]}/${p[1]}`),
    );
    const missing = [...folders, ...rooms].filter((d) => !doc.includes(`src/${d}/`));
    expect(missing).toEqual([]);
  });

  it('every folder and source file docs/ARCHITECTURE.md names exists (the doc is not stale)', () => {
    const doc = readFileSync(join(SRC, '..', 'docs', 'ARCHITECTURE.md'), 'utf8');
    const root = join(SRC, '..');
    const exists = (p: string) => {
      try {
        statSync(p);
        return true;
      } catch {
        return false;
      }
    };
    const folders = [...new Set([...doc.matchAll(/\bsrc\/[\w-]+(?:\/[\w-]+)?\//g)].map((m) => m[0]))];
    // `path/file.ts` in code spans: relative to src/, or to the repository (test/…, scripts/…).
    const sources = [...new Set([...doc.matchAll(/`([\w-]+\/[\w./-]+\.ts)`/g)].map((m) => m[1]!))];
    expect(folders.length).toBeGreaterThan(10);
    expect(sources.length).toBeGreaterThan(20);
    const missing = [
      ...folders.filter((d) => !exists(join(root, d))),
      ...sources.filter((f) => !exists(join(SRC, f)) && !exists(join(root, f))),
    ];
    expect(missing).toEqual([]);
  });

  it('every owner in the "One owner per concept" table of docs/ARCHITECTURE.md exists and exports what it names', () => {
    const doc = readFileSync(join(SRC, '..', 'docs', 'ARCHITECTURE.md'), 'utf8');
    const table = doc.slice(doc.indexOf('## One owner per concept'), doc.indexOf('## Departures'));
    const rows = table
      .split('\n')
      .filter((l) => l.startsWith('| ') && !l.startsWith('| concept') && !l.startsWith('| ---'));
    expect(rows.length).toBeGreaterThan(8);
    const bad: string[] = [];
    for (const row of rows) {
      const owner = row.split(' | ')[1] ?? '';
      // The owner: the first `path.ts`, optionally followed by the `symbol`s it exports.
      const m = /^`([\w/.-]+\.ts)`((?:,? `\w+`)*)/.exec(owner);
      if (!m) {
        bad.push(`no owner path: ${row}`);
        continue;
      }
      const file = all.find((f) => f.rel === m[1]);
      if (!file) bad.push(`${m[1]} does not exist`);
      for (const [, sym] of m[2]!.matchAll(/`(\w+)`/g)) {
        if (file && !new RegExp(`export (?:async )?(?:function|const|class|interface|type) ${sym}\\b`).test(file.text))
          bad.push(`${m[1]} does not export ${sym}`);
        // A second definition of the same name elsewhere is a second copy of the concept.
        const again = new RegExp(`^\\s*(?:export )?(?:async )?(?:function|const|let|class) ${sym}\\b`, 'm');
        for (const f of all) if (f.rel !== m[1] && again.test(f.text)) bad.push(`${f.rel} defines ${sym} again`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('lock files have one implementation: exclusive creates only in platform/lockfile.ts', () => {
    // git/lock.ts writes `<ref>.lock`, git's ref-update protocol (the lock becomes the ref);
    // platform/index-storage.ts creates the index folder's .gitignore once. Neither is a lock of ours.
    const allowed = new Set(['platform/lockfile.ts', 'git/lock.ts', 'platform/index-storage.ts']);
    const bad = all.filter((f) => /['"]wx\+?['"]|O_EXCL/.test(f.text) && !allowed.has(f.rel)).map((f) => f.rel);
    expect(bad).toEqual([]);
  });

  it('the checker itself sees imports of every form', () => {
    expect(
      importsOf(
        `import a from 'x';\nimport { b } from "y";\nimport 'z';\nconst c = await import('w');\nexport * from './v.js';`,
      ),
    ).toEqual(['x', 'y', 'z', 'w', './v.js']);
  });
});
