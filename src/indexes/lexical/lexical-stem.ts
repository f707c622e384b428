// Stemming for the keyword index (the index term of a token): English Porter stemming for Latin
// tokens only, every other script as is. One of the two owners of lunr (with ./lexical-build).
import lunr from 'lunr';
import { isLatinToken } from '../../core/tokenize.js';

/** The lunr version this build uses (record it in the index manifest). */
export const LUNR_VERSION: string = lunr.version;

const STEM_LABEL = 'gitmem-stem-latin';

/** Porter-stem a Latin-script token; every other script is indexed as is (the index term of a token). */
export function stemOf(token: string): string {
  return isLatinToken(token) ? lunr.stemmer(new lunr.Token(token, {})).toString() : token;
}

export const stemLatin: lunr.PipelineFunction = (token) =>
  isLatinToken(token.toString()) ? lunr.stemmer(token) : token;

// Registered at module load, i.e. always before any lunr.Index.load in this process.
lunr.Pipeline.registerFunction(stemLatin, STEM_LABEL);
