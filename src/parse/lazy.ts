// Access to parse/heavy.ts. Here a plain import; the CLI bundle replaces this file (scripts/build.mjs
// lazyParse) with a loader that require()s dist/parse.js on the first call (Node ≥ 20.19 loads an
// ES module synchronously that way, sharing the module instances already loaded), so parsing stays
// synchronous for every caller while the one-shot path that parses nothing never loads it.
import * as heavy from './heavy.js';

/** The heavy parsing functions (loaded on first call in the CLI bundle). */
export function heavyParse(): typeof heavy {
  return heavy;
}
