// Ahead-of-time ajv code for schemas/config.schema.json (ajv "standalone" output), with the same
// options validate/schema.ts compiles with at run time (src/validate/ajv-options.json). The build
// swaps it in for src/validate/config-validator.ts; test/unit/validate/precompiled.test.ts checks
// that both give the same answers.
import { Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** @returns ESM source exporting `precompiledConfigValidator` (an ajv ValidateFunction). */
export function configValidatorSource() {
  const options = JSON.parse(readFileSync(`${root}src/validate/ajv-options.json`, 'utf8'));
  const schema = JSON.parse(readFileSync(`${root}schemas/config.schema.json`, 'utf8'));
  const ajv = new Ajv({ ...options, code: { source: true, esm: true } });
  const standalone = standaloneModule.default ?? standaloneModule;
  return `${standalone(ajv, ajv.compile(schema))}\nexport { validate0 as precompiledConfigValidator };\n`;
}

/** esbuild plugin: src/validate/config-validator.ts → the precompiled validator. */
export const precompiledValidators = {
  name: 'gitmem-precompiled-validators',
  setup(build) {
    build.onLoad({ filter: /[\\/]validate[\\/]config-validator\.ts$/ }, () => ({
      contents: configValidatorSource(),
      loader: 'js',
      resolveDir: root,
    }));
  },
};
