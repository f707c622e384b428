// Access to validate/heavy.ts. Here a plain import; the CLI bundle replaces this file (scripts/build.mjs
// lazyHeavy) with a require() of heavy.ts on the first call (see parse/lazy.ts).
import * as heavy from './heavy.js';

/** ajv and ajv-formats (loaded on first call in the CLI bundle). */
export function heavyValidate(): typeof heavy {
  return heavy;
}
