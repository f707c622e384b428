// Access to parse/heavy.ts. Here a plain import; the CLI bundle replaces this file (scripts/build.mjs
// lazyHeavy) with a require() of heavy.ts on the first call (esbuild evaluates a require()d module
// then, not at start-up), so parsing stays
// synchronous for every caller while the one-shot path that parses nothing never loads it.
import * as heavy from './heavy.js';

/** The heavy parsing functions (loaded on first call in the CLI bundle). */
export function heavyParse(): typeof heavy {
  return heavy;
}
