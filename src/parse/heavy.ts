// The parsing code that only a changed file needs (remark/micromark, gray-matter, js-yaml, yaml):
// what parse/lazy.ts hands out. The CLI bundle evaluates it on first use
// (scripts/build.mjs lazyHeavy), so a one-shot recall over an unchanged workspace never compiles it.
export { parseDocument } from './parse-document.js';
export { Document as YamlDocument, visit as visitYaml } from 'yaml';
