// The parsing code that only a changed file needs (remark/micromark, gray-matter, js-yaml, yaml):
// what parse/lazy.ts hands out. The CLI bundle builds it as its own entry (dist/parse.js), loaded
// on first use, so a one-shot recall over an unchanged workspace never compiles it.
export { parseDocument } from './parse-document.js';
export { stringify as stringifyYaml } from 'yaml';
