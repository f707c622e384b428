#!/usr/bin/env node
// node scripts/dead-exports.mjs : lists exports of src/**/*.ts that no other file imports or names
// (src/, test/, bench/, scripts/, extension/src/ searched by whole word; the package entry src/index.ts
// and what it re-exports count as used). Exported types that describe a public function's shape are
// often meant to stay; values are the ones to delete. A list to review, not a verdict: exits 0.
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const walk = (d, out = []) => {
  if (!existsSync(d)) return out;
  for (const n of readdirSync(d)) {
    if (n === 'node_modules' || n === 'dist') continue;
    const p = join(d, n);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|mts|mjs|js)$/.test(n)) out.push(p);
  }
  return out;
};
const src = walk('src').filter((p) => p.endsWith('.ts'));
const all = [...src, ...walk('test'), ...walk('bench'), ...walk('scripts'), ...walk('extension/src')];
const text = new Map(all.map((p) => [p, readFileSync(p, 'utf8')]));
const re =
  /^export\s+(?:declare\s+)?(?:async\s+)?(function\*?|const|let|class|interface|type|enum|abstract\s+class)\s+([A-Za-z_$][\w$]*)/gm;
const dead = [];
for (const file of src) {
  if (file === join('src', 'index.ts')) continue;
  for (const m of text.get(file).matchAll(re)) {
    const name = m[2];
    const isType = m[1] === 'interface' || m[1] === 'type';
    const word = new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`);
    const used = all.some((p) => p !== file && word.test(text.get(p)));
    if (!used) dead.push({ at: `${relative('.', file)}: ${name}${isType ? ' (type)' : ''}`, isType });
  }
}
for (const d of dead) console.log(d.at);
const values = dead.filter((d) => !d.isType).length;
console.log(
  `${dead.length} exports nothing else names: ${values} values (functions, constants, classes), ${dead.length - values} types`,
);
