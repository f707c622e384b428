// ajv and ajv-formats (the compiler, for the front-matter schemas): what validate/lazy.ts hands
// out. The CLI bundle evaluates it on the first schema compile
// (scripts/build.mjs lazyHeavy), so a one-shot call that only reads the config (precompiled validator) never compiles it.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';

export { Ajv };

/** ajv-formats is CommonJS; depending on the loader its default export is the plugin or the module. */
export const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  a: Ajv,
) => Ajv;
